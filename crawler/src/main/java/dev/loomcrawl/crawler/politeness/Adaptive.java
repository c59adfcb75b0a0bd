package dev.loomcrawl.crawler.politeness;

import java.util.concurrent.TimeUnit;

/**
 * How many requests one politeness key may have in flight, and how long a gap it keeps between them, learnt
 * from its own answers: additive increase, multiplicative decrease (AIMD) on its latency and errors, in the
 * manner of TCP's congestion window, Scrapy's AutoThrottle and Heritrix's delay factor. Not thread-safe: its
 * {@link Gate} calls it under its own lock.
 *
 * <ul>
 *   <li><b>Baseline.</b> The key's normal latency is a slow moving average: {@value #BASELINE_WEIGHT} per answer
 *       within {@value #SLOW_FACTOR}× of it, a tenth of that per slower answer (so an overload barely moves it,
 *       and a server that became slower for good is learnt in a few hundred answers). Its recent latency is a
 *       fast moving average ({@value #RECENT_WEIGHT} per answer).
 *   <li><b>Overloaded</b> when the recent latency is above {@value #SLOW_FACTOR}× the baseline, or when more
 *       than {@value #ERROR_SHARE} of recent answers ({@value #ERROR_WEIGHT} per answer) were 5xx or 429.
 *   <li><b>Decrease</b>: the limit to ×{@value #DECREASE} (at least 1), the gap doubled (at least
 *       {@value #MIN_GAP_MILLIS} ms, at most {@value #MAX_GAP_MILLIS} ms); at most once per round (as many
 *       answers as the limit allows in flight), since the answers of one overload come back together.
 *   <li><b>Increase</b>: +1 after a round of healthy answers, up to the configured limit; a gap shrinks ×
 *       {@value #GAP_DECAY} per healthy answer. Past the limit at which the key was last overloaded, the next
 *       step up waits {@value #FIRST_PROBE} healthy answers, and twice as long after each probe that overloads it
 *       again (up to {@value #MAX_PROBE}): a key that cannot take more is asked rarely.
 *   <li><b>Start</b>: a new key begins at {@value #START} in flight (or its limit, if lower) and grows by rounds.
 * </ul>
 */
final class Adaptive {
    static final int START = 2;
    static final double RECENT_WEIGHT = 0.5;
    static final double BASELINE_WEIGHT = 0.05;
    static final double SLOW_FACTOR = 1.5;
    static final double ERROR_WEIGHT = 0.1;
    static final double ERROR_SHARE = 0.1;
    static final double DECREASE = 0.75;
    static final long MIN_GAP_MILLIS = 50;
    static final long MAX_GAP_MILLIS = 10_000;
    static final double GAP_DECAY = 0.9;
    static final int FIRST_PROBE = 200;
    static final int MAX_PROBE = 3_200;

    /** "Long ago": the count of answers since a decrease stops here. */
    private static final int ROUNDS_AGO = 1_000_000;

    private int allowed;
    private double recentNanos;
    private double baselineNanos;
    private double errors;
    private long gapNanos;
    /** Healthy answers since the limit last changed. */
    private int healthy;
    /** Answers since the last decrease: one decrease per round. */
    private int sinceDecrease = ROUNDS_AGO;
    /** The limit at which the key was last overloaded (0: never), and the healthy answers a step to it waits. */
    private int ceiling;
    private int probeWait = FIRST_PROBE;

    Adaptive(int limit) {
        allowed = Math.min(START, limit);
    }

    /** Requests in flight allowed now, within {@code limit}. */
    int allowed(int limit) {
        return Math.min(allowed, limit);
    }

    long gapNanos() {
        return gapNanos;
    }

    /** The key's recent latency, in ms (0 before its first answer). */
    double recentMillis() {
        return recentNanos / 1e6;
    }

    /** The key's normal latency, in ms (0 before its first answer). */
    double baselineMillis() {
        return baselineNanos / 1e6;
    }

    /**
     * One answer of the key: its latency (time to the response), and whether it was 5xx or 429.
     *
     * @return whether the limit or the gap changed
     */
    boolean answered(long nanos, boolean error, int limit) {
        errors += ERROR_WEIGHT * ((error ? 1 : 0) - errors);
        if (nanos > 0) {
            recentNanos = recentNanos == 0 ? nanos : recentNanos + RECENT_WEIGHT * (nanos - recentNanos);
        }
        boolean slow = baselineNanos > 0 && recentNanos > SLOW_FACTOR * baselineNanos;
        if (nanos > 0) {
            double weight = nanos > SLOW_FACTOR * baselineNanos ? BASELINE_WEIGHT / 10 : BASELINE_WEIGHT;
            baselineNanos = baselineNanos == 0 ? nanos : baselineNanos + weight * (nanos - baselineNanos);
        }
        sinceDecrease = Math.min(sinceDecrease + 1, ROUNDS_AGO);
        if (slow || errors > ERROR_SHARE) {
            return decrease();
        }
        long gapBefore = gapNanos;
        gapNanos = (long) (gapNanos * GAP_DECAY);
        if (gapNanos < TimeUnit.MILLISECONDS.toNanos(5)) {
            gapNanos = 0;
        }
        return increase(limit) || gapNanos != gapBefore;
    }

    private boolean decrease() {
        if (sinceDecrease < allowed) {
            return false; // the same overload, still coming back
        }
        if (ceiling != 0 && allowed >= ceiling) {
            probeWait = Math.min(MAX_PROBE, probeWait * 2); // a probe past the last overload failed again
        }
        ceiling = allowed;
        allowed = Math.max(1, (int) (allowed * DECREASE));
        gapNanos = Math.min(TimeUnit.MILLISECONDS.toNanos(MAX_GAP_MILLIS),
                Math.max(TimeUnit.MILLISECONDS.toNanos(MIN_GAP_MILLIS), gapNanos * 2));
        sinceDecrease = 0;
        healthy = 0;
        return true;
    }

    private boolean increase(int limit) {
        if (allowed >= limit) {
            allowed = limit; // the configured limit was lowered meanwhile
            return false;
        }
        healthy++;
        int wait = ceiling != 0 && allowed + 1 >= ceiling ? probeWait : allowed;
        if (healthy < wait) {
            return false;
        }
        allowed++;
        healthy = 0;
        return true;
    }
}
