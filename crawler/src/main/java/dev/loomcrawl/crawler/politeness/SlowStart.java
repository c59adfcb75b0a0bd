package dev.loomcrawl.crawler.politeness;

/**
 * A key's first answers, which say what its server answers unloaded and how fast its limit may grow: TCP's slow start,
 * with the answer's latency where TCP reads a loss. An answer within {@value Adaptive#RISE}× the mean of slow start's
 * answers so far that were not late, healthy or not (a mean of the healthy ones alone would stay at a first answer from
 * the fast end of a noisy server's, and two of its usual answers would pass for late), or within
 * {@value Adaptive#MARGIN_MILLIS} ms over it, is <em>healthy</em> and doubles the limit, whether or not the key used
 * all it was allowed: a crawl's first answer from a host is its seed's, alone in flight, and it is what tells the
 * server's unloaded latency. So a healthy key is at its limit after its first answer or two. Two answers in a row over
 * {@value Baseline#SLOW_FACTOR}× that mean and the margin over it (<em>late</em>) end slow start at half the limit, as
 * TCP halves on leaving it (the last doubling was one too many), or at the {@link #healthyLoad} if that is less and
 * over 1 (the seed alone says nothing of load); a late answer alone (our own CPU, one slow page) only holds the growth.
 * A late answer counts only when its request started with more of the key's requests awaiting their answers than any
 * healthy answer's had ({@link Reply#load}): a server whose answers vary by themselves is late now and then at any
 * load, one that cannot take more only past what it can take, so a late answer at a load already answered in time is
 * the server's spread, and says nothing. A round with all the limit in flight ends it too, late answers or not, and the
 * level rule judges that round: a request that reached the server ahead of one sent before it can come back in time at
 * the whole limit, and every late answer after it would pass for the spread while slow start, where no other rule acts,
 * lasted. Its answers that were not late are the key's unloaded latency until its levels say more ({@link Levels}). Not
 * thread-safe: its {@link Adaptive} is called under its gate's lock.
 */
final class SlowStart {
    /** What one answer says. */
    enum Verdict {
        /** Within {@value Adaptive#RISE}× slow start's mean, or the margin over it: the limit may double. */
        HEALTHY,
        /** Slower than that, not late: normal for the key, and no reason to grow. */
        NORMAL,
        /** Late once, or not healthy while our own carriers ran late: it says nothing yet. */
        UNHEARD,
        /** The second late answer in a row: slow start ends at half the limit, or at the {@link #healthyLoad}. */
        END
    }

    private boolean over;
    private int lateInARow;
    private int healthyLoad;

    /**
     * The most requests awaiting answers that a healthy answer's request started with (0: none known): the server
     * answered that load in time.
     */
    int healthyLoad() {
        return healthyLoad;
    }

    boolean over() {
        return over;
    }

    /**
     * One answer's latency, in ms.
     *
     * @param selfLate whether our own carriers ran late meanwhile: then only a healthy answer says anything
     * @param load the key's requests awaiting answers when this one started, itself included (0: not known)
     * @param unloadedMillis the mean of slow start's answers so far that were not late, which {@link Levels} keeps as
     *     the key's unloaded latency (0: none yet)
     */
    Verdict judge(double ms, boolean selfLate, int load, double unloadedMillis) {
        double mean = unloadedMillis == 0 ? ms : unloadedMillis;
        double healthyUpTo = Adaptive.beyond(mean, Adaptive.RISE);
        if (selfLate && ms > healthyUpTo) {
            return Verdict.UNHEARD;
        }
        if (ms > Adaptive.beyond(mean, Baseline.SLOW_FACTOR)) {
            if (load != 0 && load <= healthyLoad) {
                return Verdict.UNHEARD; // late at a load answered in time before: the server's own spread
            }
            return ++lateInARow < 2 ? Verdict.UNHEARD : Verdict.END;
        }
        lateInARow = 0;
        if (ms > healthyUpTo) {
            return Verdict.NORMAL;
        }
        healthyLoad = Math.max(healthyLoad, load);
        return Verdict.HEALTHY;
    }

    /** Ends slow start (an overload, a late pair, or a round at the limit). */
    void end() {
        over = true;
    }
}
