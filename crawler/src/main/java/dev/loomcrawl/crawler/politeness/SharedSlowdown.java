package dev.loomcrawl.crawler.politeness;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How much slower than its own normal every host answers at the same moment: the part of a latency that is no
 * one server's load. Overload is what one server shows; what every server shows at once is ours (a busy CPU
 * reading the answers late, a full link) or a machine behind them all, and cutting each host's limit answers
 * none of those. So each answer's latency is divided by this factor before its key's {@link Adaptive} judges it.
 *
 * <p>The factor is the median, over the hosts that answered within {@value #FRESH_MILLIS} ms, of each host's
 * last answer's latency over its normal one ({@link Gate#slowdown}), and 1 with fewer than {@value #MIN_HOSTS} such
 * hosts or when the median is below 1: a median moves only when most hosts slow together, so one overloaded
 * server, however busy, is still judged on its own answers. Host gates only: every request takes one, whatever
 * the politeness key. Recomputed at most every {@value #EVERY_MILLIS} ms, by whichever answer comes first.
 */
final class SharedSlowdown {
    /** Fewer hosts than this answering together are no crowd: each is judged on its own answers alone. */
    static final int MIN_HOSTS = 8;
    static final long FRESH_MILLIS = 1_000;
    static final long EVERY_MILLIS = 20;

    private final GateTable table;
    private final AtomicLong computedAt;
    private volatile double factor = 1;

    SharedSlowdown(GateTable table, long now) {
        this.table = table;
        this.computedAt = new AtomicLong(now);
    }

    /** What every host's answers share now: 1 or more. */
    double factor(long now) {
        long last = computedAt.get();
        if (now - last >= TimeUnit.MILLISECONDS.toNanos(EVERY_MILLIS) && computedAt.compareAndSet(last, now)) {
            factor = compute(now - TimeUnit.MILLISECONDS.toNanos(FRESH_MILLIS));
        }
        return factor;
    }

    private double compute(long freshSince) {
        double[] ratios = new double[16];
        int n = 0;
        for (Gate g : table.hostGates()) {
            double r = g.slowdown(freshSince);
            if (r > 0) {
                if (n == ratios.length) {
                    ratios = Arrays.copyOf(ratios, 2 * n);
                }
                ratios[n++] = r;
            }
        }
        if (n < MIN_HOSTS) {
            return 1;
        }
        Arrays.sort(ratios, 0, n);
        double median = n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
        return Math.max(1, median);
    }
}
