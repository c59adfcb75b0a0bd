package dev.loomcrawl.crawler.politeness;

import java.util.concurrent.TimeUnit;

/**
 * How many requests one politeness key may have in flight, and how long a gap it keeps between them, learnt
 * from its own answers: additive increase, multiplicative decrease (AIMD), in the manner of TCP's congestion
 * window, Scrapy's AutoThrottle and Heritrix's delay factor. Not thread-safe: its {@link Gate} calls it under its
 * own lock. The rule below; why each step and constant is what it is: docs/politeness.md, "Adaptive politeness".
 * <ul>
 *   <li><b>Levels.</b> The answers at the current limit, judged in blocks against the key's unloaded latency;
 *       a level is <em>slower</em> when a block's mean is clearly above it, by Welch's test ({@link Levels}).
 *   <li><b>Baseline.</b> The key's normal latency and slow threshold ({@link Baseline}); the recent latency is a
 *       faster moving average ({@value #RECENT_WEIGHT} per answer, each answer counted as at most twice the slow
 *       threshold), which catches an overload not of our making.
 *   <li><b>Overloaded</b> when a step up was slower, the recent latency is above the slow threshold, or more than
 *       {@value #ERROR_SHARE} of recent answers ({@value #ERROR_WEIGHT} per answer) were 5xx or 429 (one with a
 *       {@code Retry-After} is obeyed by its rest, and is no overload: {@link HostGates#exit}).
 *   <li><b>Decrease</b>: the limit to ×{@value #DECREASE} (at least 1); on errors the gap doubled (at least
 *       {@value #MIN_GAP_MILLIS} ms, at most {@value #MAX_GAP_MILLIS} ms), on slowness only at a limit of 1 and
 *       then at most {@value #SLOW_GAP_BASELINES} baselines; the recent latency and error share start afresh, and
 *       answers to requests sent before the change are only learnt from. After a run of errors, an incident and
 *       not the level's cost, no ceiling is remembered and healthy answers bring the limit back, one each. A cut
 *       for slowness whose level below answers no faster (a server's own spread, not an overload) is undone.
 *   <li><b>Increase</b>: +1 after a round (and at least {@value #SAMPLES} answers) without overload, up to the
 *       configured limit; a gap shrinks ×{@value #GAP_DECAY} per answer. The step back up to the level at which
 *       the key was last overloaded waits {@value #FIRST_PROBE} answers, twice as long after each such probe that
 *       overloads it again (up to {@value #MAX_PROBE}); a round at that level that shows it fine (not merely not
 *       clearly slower: {@link Levels.Judgement#DOUBTFUL} fails a probe), of requests sent with the level in
 *       flight, forgets it.
 *   <li><b>Start</b>: a new key begins at {@value #START} in flight (or its limit, if lower), and answers at the
 *       baseline double the limit until two late answers in a row end this {@link SlowStart} at half, or at the
 *       most in flight answered in time if less (healthy answers bring it back, one each, to one below the late
 *       level, and no higher than that most), or a round at the limit ends it.
 * </ul>
 */
final class Adaptive {
    static final int START = 4;
    static final int SAMPLES = 5;
    static final double RISE = 1.3;
    static final double SPREAD = 2.5;
    static final double RECENT_WEIGHT = 0.25;
    static final double ERROR_WEIGHT = 0.05;
    static final double ERROR_SHARE = 0.25;
    static final double DECREASE = 0.75;
    static final long MIN_GAP_MILLIS = 50;
    static final long MAX_GAP_MILLIS = 10_000;
    static final double GAP_DECAY = 0.9;
    static final double SLOW_GAP_BASELINES = 4;
    static final int FIRST_PROBE = 300;
    static final int MAX_PROBE = 4_800;
    /**
     * A latency less than this above what is normal for a key is never late, whatever the ratio: a server
     * answering in a few ms has time to spare, and at that scale a busy process's own hiccups (a collection, a
     * parse sharing the core, the scheduler's slice) are what varies.
     */
    static final double MARGIN_MILLIS = 20;

    private int allowed;
    private double recentNanos;
    private final Baseline baseline = new Baseline();
    private double errors;
    private long gapNanos;
    private final Levels levels = new Levels();
    /** Answers still to come of requests sent before the limit last changed. */
    private int stale;
    /** The limit at which the key was last overloaded (0: none to remember), and the answers a step to it waits. */
    private int ceiling;
    private int probeWait = FIRST_PROBE;
    /** The limit last cut for slowness, to go back to if the cut bought nothing. */
    private int cutFrom;
    private final SlowStart start = new SlowStart();
    /** After a cut for errors or a late pair: the limit it grows back to by one per healthy answer (0: none). */
    private int recovery;
    /** Whether the last cut was for 5xx and 429 answers, not for slower ones. */
    private boolean cutForErrors;

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
        return baseline.nanos() / 1e6;
    }

    /** Why the key is below its limit: starting, its last cut's 5xx and 429 answers, or its slower answers. */
    String heldBecause() {
        return !start.over() ? "starting (it doubles with each answer on time)"
                : cutForErrors ? "its server answered 5xx or 429" : "its answers slowed";
    }

    /**
     * One answer of the key; a latency while our own carriers ran late counts only where it could not owe anything
     * to that (a healthy answer in slow start).
     *
     * @param full whether the key had all it is allowed in flight: only such answers say what this level costs
     *     the server and let it grow (a key too short of URLs to use its limit earns no more, as TCP's window)
     * @return whether the limit or the gap changed
     */
    boolean answered(Reply reply, int limit, boolean full) {
        errors += ERROR_WEIGHT * ((reply.error() ? 1 : 0) - errors);
        long nanos = reply.selfLate() ? 0 : reply.nanos(); // maybe our lateness: only slow start may use it (below)
        if (stale > 0) { // sent before the limit last changed: it speaks of the old limit, already acted on
            stale--;
            if (nanos > 0) {
                baseline.learn(nanos);
            }
            return false;
        }
        if (!start.over() && reply.nanos() > 0 && !reply.error()) {
            return startAnswer(reply, limit, full);
        }
        boolean slow = false;
        double threshold = baseline.threshold();
        boolean probing = ceiling != 0 && allowed >= ceiling;
        if (nanos > 0) {
            noteRecent(nanos);
            baseline.learn(nanos);
            slow = recentNanos > threshold;
            // A probe's first requests leave as others come back, and reach a server with fewer in hand than the
            // level: only requests sent with the level in flight say whether the server can take it now
            if (full && (!probing || reply.load() == 0 || reply.load() >= allowed)) {
                levels.add(nanos / 1e6);
            }
        }
        if (errors > ERROR_SHARE) {
            return decrease(true);
        }
        Levels.Judgement judgement = levels.judge(allowed);
        if (slow || judgement == Levels.Judgement.SLOWER || probing && judgement == Levels.Judgement.DOUBTFUL) {
            return decrease(false); // a probe of a level that overloaded the key must show it is fine now
        }
        if (judgement == Levels.Judgement.NO_RELIEF) {
            return undoCut(limit);
        }
        long gapBefore = gapNanos;
        gapNanos = gapNanos * GAP_DECAY < TimeUnit.MILLISECONDS.toNanos(5) ? 0 : (long) (gapNanos * GAP_DECAY);
        boolean onTime = onTime(nanos, threshold);
        if (full && nanos > 0 && !onTime) {
            recovery = 0; // a level that still answers late is no incident to undo: it grows by rounds
        }
        return increase(limit, full && onTime && !reply.error()) || gapNanos != gapBefore;
    }

    /**
     * Whether a latency is within the slow threshold it was judged by ({@code threshold}, from the baseline and its
     * spread) and not {@link #beyond} {@value Baseline#SLOW_FACTOR}× what the key answers unloaded: the lowest
     * level's mean, else slow start's healthy answers' ({@link Levels#unloadedMillis}; 0: not known yet). A healthy
     * answer is judged against it as well as the baseline, which takes a stall's late answers in and rises.
     */
    private boolean onTime(long nanos, double threshold) {
        double unloaded = levels.unloadedMillis();
        return nanos > 0 && nanos <= threshold
                && (unloaded == 0 || nanos / 1e6 <= beyond(unloaded, Baseline.SLOW_FACTOR));
    }

    /**
     * The latency, in ms, past which an answer is more than {@code factor} times {@code normalMillis}: at least
     * {@value #MARGIN_MILLIS} ms more.
     */
    static double beyond(double normalMillis, double factor) {
        return Math.max(factor * normalMillis, normalMillis + MARGIN_MILLIS);
    }

    /** An answer during slow start (see {@link SlowStart}). */
    private boolean startAnswer(Reply reply, int limit, boolean full) {
        long nanos = reply.nanos();
        if (!reply.selfLate()) {
            noteRecent(nanos);
        }
        SlowStart.Verdict verdict = start.judge(nanos / 1e6, reply.selfLate(), reply.load(), levels.unloadedMillis());
        if (verdict == SlowStart.Verdict.END) {
            // Maybe a stall every host saw at once (ours, a shared server's): no ceiling, healthy answers undo it, up
            // to the most in flight the server answered in time, past which it answered late. With only the seed's
            // answer in time, a stall and a server that takes one look alike: half, and back towards the late level.
            start.end();
            cutForErrors = false;
            int before = allowed;
            int shown = start.healthyLoad() > 1 ? start.healthyLoad() : before;
            allowed = Math.max(1, Math.min(before / 2, shown));
            recovery = Math.min(before - 1, shown);
            recentNanos = baseline.nanos();
            newLevel(before);
            return true;
        }
        if (verdict != SlowStart.Verdict.UNHEARD) {
            baseline.learnNormal(nanos);
            levels.unloaded(nanos / 1e6);
        }
        if (verdict == SlowStart.Verdict.HEALTHY) {
            int before = allowed;
            allowed = Math.min(limit, 2 * allowed);
            if (allowed != before) {
                newLevel(0);
                return true;
            }
        }
        if (full && !reply.selfLate()) {
            levels.add(nanos / 1e6);
        }
        if (levels.count() >= Math.max(SAMPLES, limit)) {
            start.end(); // a round with all the limit in flight: the level's answers are judged from here on
        }
        return false;
    }

    /**
     * Takes one latency into the recent latency, a moving average, as at most twice the slow threshold: one answer
     * alone, however late (a heavy page, a server's hiccup), cannot take the average over the threshold.
     */
    private void noteRecent(long nanos) {
        double counted = Math.min(nanos, 2 * baseline.threshold());
        recentNanos = recentNanos == 0 ? counted : recentNanos + RECENT_WEIGHT * (counted - recentNanos);
    }

    /** @param errors whether the server answered errors, not only slowly */
    private boolean decrease(boolean errors) {
        start.end();
        cutForErrors = errors;
        int before = allowed;
        if (errors) {
            // A run of errors is an incident, not this level's cost: the limit grows back by answers once they are
            // healthy, and no ceiling is remembered against it.
            recovery = Math.max(recovery, before);
        } else {
            if (ceiling != 0 && allowed >= ceiling) {
                probeWait = Math.min(MAX_PROBE, probeWait * 2); // a probe past the last overload failed again
            }
            ceiling = allowed;
            recovery = 0;
            if (allowed > 1) {
                levels.cutting(recentNanos / 1e6);
                cutFrom = allowed;
            }
        }
        allowed = Math.max(1, (int) (allowed * DECREASE));
        if (errors || before == 1) {
            // Slowness alone opens a gap only once one request at a time is not enough, and no longer than a few
            // of its normal answers: it may be our own CPU that made the answers late, not the server.
            long most = errors ? TimeUnit.MILLISECONDS.toNanos(MAX_GAP_MILLIS)
                    : Math.min(TimeUnit.MILLISECONDS.toNanos(MAX_GAP_MILLIS),
                            (long) (SLOW_GAP_BASELINES * baseline.nanos()));
            gapNanos = Math.min(most, Math.max(TimeUnit.MILLISECONDS.toNanos(MIN_GAP_MILLIS), gapNanos * 2));
        }
        recentNanos = baseline.nanos(); // what comes next is judged afresh
        this.errors = 0;
        newLevel(before);
        return true;
    }

    /**
     * A cut for slowness after which the level below answered no faster than the level cut: what looked like an
     * overload was the server's own spread (the cut level's answers happened to come slow), so the limit is
     * back and no ceiling is remembered.
     */
    private boolean undoCut(int limit) {
        forgetCeiling();
        int before = allowed;
        allowed = Math.min(limit, Math.max(allowed, cutFrom));
        newLevel(before);
        return allowed != before;
    }

    /** No level is remembered as one that overloaded the key: the next step up waits a round, as any. */
    private void forgetCeiling() {
        ceiling = 0;
        probeWait = FIRST_PROBE;
    }

    /** @param healthy an answer on time ({@link #onTime}) to a request sent while the key used all it may */
    private boolean increase(int limit, boolean healthy) {
        if (allowed >= limit) {
            allowed = limit; // the configured limit was lowered meanwhile
            recovery = 0;
            return false;
        }
        if (allowed < recovery && healthy) {
            // Back by one per healthy answer, as TCP grows back by acknowledgements; an answer that is not
            // healthy leaves the key to the rule of rounds below, and the level rule.
            allowed++;
            if (allowed >= recovery) {
                recovery = 0;
            }
            newLevel(0);
            return true;
        }
        int round = Math.max(SAMPLES, allowed);
        if (ceiling != 0 && allowed >= ceiling && levels.count() >= round) {
            forgetCeiling(); // a round at the level that once overloaded it, without overload
        }
        int wait = ceiling != 0 && allowed + 1 == ceiling ? Math.max(probeWait, round) : round;
        if (levels.count() < wait) {
            return false;
        }
        int before = allowed;
        allowed++;
        newLevel(before);
        return true;
    }

    /** A new limit: its answers counted afresh once the {@code inFlight} requests sent before it are back. */
    private void newLevel(int inFlight) {
        levels.clear();
        stale = inFlight;
    }
}
