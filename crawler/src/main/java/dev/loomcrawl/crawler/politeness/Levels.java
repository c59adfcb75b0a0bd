package dev.loomcrawl.crawler.politeness;

/**
 * What each limit a key has had costs its server, Vegas's question ("did one more in flight only make the answers
 * slower?"): the answers at the current limit (the <em>level</em>), from requests sent while the key used all of
 * it, and the lowest level mean so far, the key's <em>unloaded</em> latency (Vegas's BaseRTT; at a limit of 1 the
 * current level takes its place). Not thread-safe: its {@link Adaptive} is called under its gate's lock.
 */
final class Levels {
    private final Latencies current = new Latencies();
    /** The lowest level mean so far (ms, 0: none yet) and the variance of that mean. */
    private double unloadedMean;
    private double unloadedVariance;

    /** One answer's latency, in ms, at the current level. */
    void add(double ms) {
        current.add(ms);
    }

    /** Answers at the current level so far. */
    int count() {
        return current.count();
    }

    /** The unloaded latency, in ms (0: not known yet). */
    double unloadedMillis() {
        return unloadedMean;
    }

    /**
     * Whether the current level, {@code allowed} in flight, answers clearly slower than the key does unloaded:
     * after {@value Adaptive#SAMPLES} answers or a round, its mean over {@value Adaptive#RISE}× the unloaded one
     * and over it by more than {@value Adaptive#SPREAD} standard errors of the two.
     */
    boolean slower(int allowed) {
        if (unloadedMean == 0 || current.count() < Math.max(Adaptive.SAMPLES, allowed)) {
            return false;
        }
        double mean = current.mean();
        return mean > Adaptive.RISE * unloadedMean
                && mean - unloadedMean > Adaptive.SPREAD * Math.sqrt(current.varianceOfMean() + unloadedVariance);
    }

    /** Leaving the level at {@code allowed}: with enough answers to judge, the unloaded latency if the lowest. */
    void leave(int allowed) {
        if (current.count() >= Adaptive.SAMPLES) {
            double mean = current.mean();
            if (unloadedMean == 0 || mean < unloadedMean || allowed == 1) {
                unloadedMean = mean;
                unloadedVariance = current.varianceOfMean();
            }
        }
    }

    /** Slow start's healthy answers, as the unloaded latency before any level has one. */
    void unloaded(Latencies healthy) {
        if (healthy.count() >= 2) {
            unloadedMean = healthy.mean();
            unloadedVariance = healthy.varianceOfMean();
        }
    }

    /** A new limit: its answers are counted afresh. */
    void clear() {
        current.clear();
    }
}
