package dev.loomcrawl.crawler.politeness;

/**
 * A key's first answers, which say what its server answers unloaded and how fast its limit may grow: TCP's slow
 * start, with the answer's latency where TCP reads a loss. An answer within {@value Adaptive#RISE}× the mean of
 * slow start's answers so far is <em>healthy</em> and doubles the limit, whether or not the key used all it was
 * allowed: a crawl's first answer from a host is its seed's, alone in flight, and it is what tells the server's
 * unloaded latency. So a healthy key is at its limit after its first answer or two. Two answers in a row over
 * {@value Baseline#SLOW_FACTOR}× that mean (<em>late</em>) end slow start at half the limit, as TCP halves on
 * leaving it (the last doubling was one too many); a late answer alone (our own CPU, one slow page) only holds
 * the growth. A round with all the limit in flight and none late ends it too. Its answers that were not late are
 * the key's unloaded latency until its levels say more ({@link Levels}). Not thread-safe: its
 * {@link Adaptive} is called under its gate's lock.
 */
final class SlowStart {
    /** What one answer says. */
    enum Verdict {
        /** Within {@value Adaptive#RISE}× slow start's mean: the limit may double. */
        HEALTHY,
        /** Slower than that, not late: normal for the key, and no reason to grow. */
        NORMAL,
        /** Late once, or not healthy while our own carriers ran late: it says nothing yet. */
        UNHEARD,
        /** The second late answer in a row: slow start ends at half the limit. */
        END
    }

    private final Latencies healthy = new Latencies();
    private boolean over;
    private int lateInARow;

    boolean over() {
        return over;
    }

    /**
     * One answer's latency, in ms.
     *
     * @param selfLate whether our own carriers ran late meanwhile: then only a healthy answer says anything
     */
    Verdict judge(double ms, boolean selfLate) {
        double mean = healthy.count() == 0 ? ms : healthy.mean();
        if (selfLate && ms > Adaptive.RISE * mean) {
            return Verdict.UNHEARD;
        }
        if (ms > Baseline.SLOW_FACTOR * mean) {
            return ++lateInARow < 2 ? Verdict.UNHEARD : Verdict.END;
        }
        lateInARow = 0;
        if (ms > Adaptive.RISE * mean) {
            return Verdict.NORMAL;
        }
        healthy.add(ms);
        return Verdict.HEALTHY;
    }

    /** Ends slow start (an overload, a late pair, or a round at the limit). */
    void end() {
        over = true;
    }
}
