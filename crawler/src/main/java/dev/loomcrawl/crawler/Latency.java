package dev.loomcrawl.crawler;

import org.HdrHistogram.AbstractHistogram;

/** Percentiles of a latency distribution, in milliseconds. */
public record Latency(double p50, double p95, double p99, double max, long count) {

    static Latency of(AbstractHistogram micros) {
        return new Latency(ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(95)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()), micros.getTotalCount());
    }

    private static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
