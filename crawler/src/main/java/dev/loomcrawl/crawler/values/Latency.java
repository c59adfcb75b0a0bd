package dev.loomcrawl.crawler.values;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/** Percentiles of a latency distribution, in milliseconds. */
public record Latency(double p50, double p95, double p99, double max, long count) {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

    public static Latency of(AbstractHistogram micros) {
        return new Latency(ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(95)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()), micros.getTotalCount());
    }

    /** From stored times, in milliseconds. */
    public static Latency ofMillis(Collection<Double> millis) {
        Histogram micros = new Histogram(MAX_MICROS, 2);
        for (double ms : millis) {
            micros.recordValue(Math.min(MAX_MICROS, Math.max(0, Math.round(ms * 1_000))));
        }
        return of(micros);
    }

    private static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }
}
