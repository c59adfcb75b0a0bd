package dev.loomcrawl.crawler.politeness;

/**
 * A key's normal latency and its usual deviation from it, moving averages as TCP keeps SRTT and RTTVAR
 * ({@value #WEIGHT} and {@value #DEVIATION_WEIGHT} per answer). Its <em>slow threshold</em> is the larger of
 * {@value #SLOW_FACTOR}× the baseline (and {@value Adaptive#MARGIN_MILLIS} ms above it) and the baseline plus
 * {@value #DEVIATIONS} deviations; an answer above it moves the baseline a tenth as much and the deviation not at
 * all (an overloaded answer is no part of what is normal). Not thread-safe: its {@link Adaptive} is called under
 * its gate's lock.
 */
final class Baseline {
    static final double WEIGHT = 0.125;
    static final double DEVIATION_WEIGHT = 0.25;
    static final double SLOW_FACTOR = 1.5;
    static final double DEVIATIONS = 4;

    private double nanos;
    private double deviation;

    /** The normal latency, in ns (0 before the first answer). */
    double nanos() {
        return nanos;
    }

    /** Above it, a latency says the key is overloaded (infinite before any answer). */
    double threshold() {
        return nanos == 0 ? Double.MAX_VALUE
                : Math.max(1e6 * Adaptive.beyond(nanos / 1e6, SLOW_FACTOR), nanos + DEVIATIONS * deviation);
    }

    /** Takes one answer's latency in, judged against the threshold as it was before. */
    void learn(long latency) {
        learn(latency, latency > threshold());
    }

    /** Takes in one answer's latency known to be normal. */
    void learnNormal(long latency) {
        learn(latency, false);
    }

    private void learn(long latency, boolean overloaded) {
        if (nanos == 0) {
            nanos = latency;
            deviation = latency / 2.0; // as TCP starts RTTVAR: one answer says little of the spread
        } else if (overloaded) {
            nanos += 0.1 * WEIGHT * (latency - nanos);
        } else {
            deviation += DEVIATION_WEIGHT * (Math.abs(latency - nanos) - deviation);
            nanos += WEIGHT * (latency - nanos);
        }
    }
}
