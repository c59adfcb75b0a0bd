package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How much slower than its own normal every key answers at the same moment: the part of a latency that is no
 * one server's load. Overload is what one server shows; what every server shows at once is ours (a busy CPU
 * reading the answers late, a full link) or a machine behind them all, and cutting each key's limit answers
 * none of those. So each answer's latency is divided by this factor before its key's {@link Adaptive} judges it.
 *
 * <p>The factor is the median, over the keys of one kind that answered within {@value #FRESH_MILLIS} ms, of each
 * key's last latency over its normal one ({@link Gate#slowdown}); 1 with fewer than {@value #MIN_KEYS} such keys
 * or when the median is below 1. A median moves only when most keys slow together, so one overloaded server,
 * however busy, is still judged on its own answers; and per kind, so that many host names on one machine, slowing
 * together, are still one address slowing among the others when the crawl limits by address. Recomputed at most
 * every {@value #EVERY_MILLIS} ms, by whichever answer comes first.
 */
final class SharedSlowdown {
    /** Fewer keys than this answering together are no crowd: each is judged on its own answers alone. */
    static final int MIN_KEYS = 8;
    static final long FRESH_MILLIS = 1_000;
    static final long EVERY_MILLIS = 20;

    private final GateTable table;
    private final AtomicLong computedAt;
    /** By {@link PolitenessKey#ordinal}. */
    private volatile double[] factors = {1, 1, 1};

    SharedSlowdown(GateTable table, long now) {
        this.table = table;
        this.computedAt = new AtomicLong(now);
    }

    /** What every key of {@code kind} shares in its answers now: 1 or more (1 where no limit adapts). */
    double factor(PolitenessKey kind, long now) {
        if (!table.adaptive()) {
            return 1; // fixed limits judge no latency: no gate's ratio to gather every few ms
        }
        long last = computedAt.get();
        if (now - last >= TimeUnit.MILLISECONDS.toNanos(EVERY_MILLIS) && computedAt.compareAndSet(last, now)) {
            factors = compute(now - TimeUnit.MILLISECONDS.toNanos(FRESH_MILLIS));
        }
        return factors[kind.ordinal()];
    }

    private double[] compute(long freshSince) {
        int kinds = PolitenessKey.values().length;
        double[][] ratios = new double[kinds][16];
        int[] counts = new int[kinds];
        for (Gate g : table.gates()) {
            double r = g.slowdown(freshSince);
            int k = g.kind.ordinal();
            if (r > 0) {
                if (counts[k] == ratios[k].length) {
                    ratios[k] = Arrays.copyOf(ratios[k], 2 * counts[k]);
                }
                ratios[k][counts[k]++] = r;
            }
        }
        double[] medians = new double[kinds];
        for (int k = 0; k < kinds; k++) {
            medians[k] = counts[k] < MIN_KEYS ? 1 : Math.max(1, median(ratios[k], counts[k]));
        }
        return medians;
    }

    private static double median(double[] values, int n) {
        Arrays.sort(values, 0, n);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}
