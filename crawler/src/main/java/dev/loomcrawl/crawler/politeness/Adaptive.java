package dev.loomcrawl.crawler.politeness;

import java.util.concurrent.TimeUnit;

/**
 * How many requests one politeness key may have in flight, and how long a gap it keeps between them, learnt
 * from its own answers: additive increase, multiplicative decrease (AIMD), in the manner of TCP's congestion
 * window (Vegas's question, "did one more in flight only make the answers slower?"), Scrapy's AutoThrottle and
 * Heritrix's delay factor. Not thread-safe: its {@link Gate} calls it under its own lock.
 *
 * <ul>
 *   <li><b>Levels.</b> The mean latency (time to the answer) of the answers taken at each limit is kept, from
 *       requests sent at that limit while the key used all of it (answers to requests sent before a change are
 *       left out), with its standard error. The level with the lowest mean so far is the key's <em>unloaded</em>
 *       latency (Vegas's BaseRTT; at a limit of 1 the current level takes its place, so a server slower for good
 *       is learnt). A level is <em>slower</em> when, after {@value #SAMPLES} answers or a round, its mean is over
 *       {@value #RISE}× the unloaded one and over it by more than {@value #SPREAD} standard errors of the two (a
 *       server whose answers vary widely is not overloaded by its own noise).
 *   <li><b>Baseline.</b> The key's normal latency and its usual deviation from it are moving averages, as TCP
 *       keeps SRTT and RTTVAR ({@value #BASELINE_WEIGHT} and {@value #DEVIATION_WEIGHT} per answer; an answer
 *       above the slow threshold moves the baseline a tenth as much and the deviation not at all). Its recent
 *       latency is a faster moving average ({@value #RECENT_WEIGHT}). The <em>slow threshold</em> is the larger of
 *       {@value #SLOW_FACTOR}× the baseline and the baseline plus {@value #DEVIATIONS} deviations: it catches an
 *       overload that does not come from a step of ours (other clients, a server in trouble).
 *   <li><b>Overloaded</b> when a step up was slower, when the recent latency is above the slow threshold, or when
 *       more than {@value #ERROR_SHARE} of recent answers ({@value #ERROR_WEIGHT} per answer) were 5xx or 429 (an
 *       error that came with a {@code Retry-After} is obeyed by the rest it asked for, and is no overload: see
 *       {@link HostGates#exit}). One stray 5xx that a retry answers, or a 429 now and then, cuts nothing.
 *   <li><b>Decrease</b>: the limit to ×{@value #DECREASE} (at least 1), the recent latency back to the baseline;
 *       after a run of errors (an incident, not the level's cost) it grows back by one per healthy answer to
 *       where it was, and no ceiling is remembered;
 *       on errors the gap doubled (at least {@value #MIN_GAP_MILLIS} ms, at most {@value #MAX_GAP_MILLIS} ms), on
 *       slowness only once the limit is 1 and then at most {@value #SLOW_GAP_BASELINES} baselines (late answers may
 *       be our own CPU's doing, not the server's); the recent latency and error share start afresh. Answers to requests sent before a change of the limit are then only learnt from, not acted on:
 *       the answers of one overload come back together and are one overload.
 *   <li><b>Increase</b>: +1 after a round (and at least {@value #SAMPLES} answers) without overload, up to the
 *       configured limit; a gap shrinks ×{@value #GAP_DECAY} per answer. The step back up to the level at which
 *       the key was last overloaded waits {@value #FIRST_PROBE} answers, twice as long after each such probe that
 *       overloads it again (up to {@value #MAX_PROBE}): a key that cannot take more is asked rarely. A round at
 *       that level without overload forgets it.
 *   <li><b>Start</b>: a new key begins at {@value #START} in flight (or its limit, if lower), and until its first
 *       overload its limit doubles each round instead of growing by one (TCP's slow start).
 * </ul>
 */
final class Adaptive {
    static final int START = 2;
    static final int SAMPLES = 5;
    static final double RISE = 1.3;
    static final double SPREAD = 2;
    static final double RECENT_WEIGHT = 0.25;
    static final double BASELINE_WEIGHT = 0.125;
    static final double DEVIATION_WEIGHT = 0.25;
    static final double SLOW_FACTOR = 1.5;
    static final double DEVIATIONS = 4;
    static final double ERROR_WEIGHT = 0.05;
    static final double ERROR_SHARE = 0.25;
    static final double DECREASE = 0.75;
    static final long MIN_GAP_MILLIS = 50;
    static final long MAX_GAP_MILLIS = 10_000;
    static final double GAP_DECAY = 0.9;
    static final double SLOW_GAP_BASELINES = 4;
    static final int FIRST_PROBE = 300;
    static final int MAX_PROBE = 4_800;

    private int allowed;
    private double recentNanos;
    private double baselineNanos;
    private double deviationNanos;
    private double errors;
    private long gapNanos;
    /** Answers at this level, their latencies (ms) added up, and their squares. */
    private int levelAnswers;
    private double levelSum;
    private double levelSquares;
    /** The lowest level mean so far (ms, 0: none yet) and the variance of that mean. */
    private double unloadedMean;
    private double unloadedVariance;
    /** Answers still to come of requests sent before the limit last changed. */
    private int stale;
    /** The limit at which the key was last overloaded (0: none to remember), and the answers a step to it waits. */
    private int ceiling;
    private int probeWait = FIRST_PROBE;
    /** Until its first overload the key's limit doubles each round, as TCP's slow start does. */
    private boolean slowStart = true;
    /** After a cut for errors: the limit it grows back to by one per healthy answer (0: none). */
    private int recovery;

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

    /** As {@link #answered(long, boolean, int, boolean)} for a key using all it is allowed. */
    boolean answered(long nanos, boolean error, int limit) {
        return answered(nanos, error, limit, true);
    }

    /**
     * One answer of the key: its latency (0: none), and whether it was 5xx or 429 (or no answer, for trouble
     * of the server's).
     *
     * @param full whether the key had all it is allowed in flight: only such answers say what this level costs
     *     the server, and only they let it grow (a key with too few URLs to use its limit does not earn a
     *     larger one, as TCP validates its window)
     * @return whether the limit or the gap changed
     */
    boolean answered(long nanos, boolean error, int limit, boolean full) {
        errors += ERROR_WEIGHT * ((error ? 1 : 0) - errors);
        if (stale > 0) { // sent before the limit last changed: it speaks of the old limit, already acted on
            stale--;
            if (nanos > 0) {
                learnBaseline(nanos, threshold());
            }
            return false;
        }
        boolean slow = false;
        if (nanos > 0) {
            recentNanos = recentNanos == 0 ? nanos : recentNanos + RECENT_WEIGHT * (nanos - recentNanos);
            double threshold = threshold();
            learnBaseline(nanos, threshold);
            slow = recentNanos > threshold;
            if (full) {
                double ms = nanos / 1e6;
                levelAnswers++;
                levelSum += ms;
                levelSquares += ms * ms;
            }
        }
        if (errors > ERROR_SHARE) {
            return decrease(true);
        }
        if (slow || slowerThanBelow()) {
            return decrease(false);
        }
        long gapBefore = gapNanos;
        gapNanos = (long) (gapNanos * GAP_DECAY);
        if (gapNanos < TimeUnit.MILLISECONDS.toNanos(5)) {
            gapNanos = 0;
        }
        boolean atBaseline = nanos > 0 && nanos <= RISE * baselineNanos;
        return increase(limit, full && atBaseline && !error) || gapNanos != gapBefore;
    }

    /** The slow threshold: above it, the recent latency says the key is overloaded (infinite before any answer). */
    private double threshold() {
        return baselineNanos == 0 ? Double.MAX_VALUE
                : Math.max(SLOW_FACTOR * baselineNanos, baselineNanos + DEVIATIONS * deviationNanos);
    }

    /** Takes one latency into the baseline and its deviation. */
    private void learnBaseline(long nanos, double threshold) {
        if (baselineNanos == 0) {
            baselineNanos = nanos;
            deviationNanos = nanos / 2.0; // as TCP starts RTTVAR: one answer says little of the spread
        } else if (nanos > threshold) { // an overloaded answer barely moves what is normal, and is no spread of it
            baselineNanos += 0.1 * BASELINE_WEIGHT * (nanos - baselineNanos);
        } else {
            deviationNanos += DEVIATION_WEIGHT * (Math.abs(nanos - baselineNanos) - deviationNanos);
            baselineNanos += BASELINE_WEIGHT * (nanos - baselineNanos);
        }
    }

    /** Whether this level answers clearly slower than the key does unloaded. */
    private boolean slowerThanBelow() {
        if (unloadedMean == 0 || levelAnswers < Math.max(SAMPLES, allowed)) {
            return false;
        }
        double mean = levelSum / levelAnswers;
        return mean > RISE * unloadedMean
                && mean - unloadedMean > SPREAD * Math.sqrt(levelVariance() + unloadedVariance);
    }

    /** The variance of this level's mean latency (its sample variance over its answers). */
    private double levelVariance() {
        double mean = levelSum / levelAnswers;
        return Math.max(0, levelSquares / levelAnswers - mean * mean) / (levelAnswers - 1);
    }

    /** Leaving a level with enough answers to judge it: the key's unloaded latency, if it is the lowest so far. */
    private void leaveLevel() {
        if (levelAnswers >= SAMPLES) {
            double mean = levelSum / levelAnswers;
            if (unloadedMean == 0 || mean < unloadedMean || allowed == 1) {
                unloadedMean = mean;
                unloadedVariance = levelVariance();
            }
        }
    }

    /** @param errors whether the server answered errors, not only slowly */
    private boolean decrease(boolean errors) {
        slowStart = false;
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
        }
        leaveLevel();
        allowed = Math.max(1, (int) (allowed * DECREASE));
        if (errors || before == 1) {
            // Slowness alone opens a gap only once one request at a time is not enough, and no longer than a few
            // of its normal answers: it may be our own CPU that made the answers late, not the server.
            long most = errors ? TimeUnit.MILLISECONDS.toNanos(MAX_GAP_MILLIS)
                    : Math.min(TimeUnit.MILLISECONDS.toNanos(MAX_GAP_MILLIS), (long) (SLOW_GAP_BASELINES * baselineNanos));
            gapNanos = Math.min(most, Math.max(TimeUnit.MILLISECONDS.toNanos(MIN_GAP_MILLIS), gapNanos * 2));
        }
        recentNanos = baselineNanos; // what comes next is judged afresh
        this.errors = 0;
        newLevel(before);
        return true;
    }

    /** @param healthy an answer near the key's baseline to a request sent while it used all it was allowed */
    private boolean increase(int limit, boolean healthy) {
        if (allowed >= limit) {
            allowed = limit; // the configured limit was lowered meanwhile
            recovery = 0;
            return false;
        }
        if (allowed < recovery) {
            if (!healthy) {
                return false;
            }
            // Back from a run of errors by one per healthy answer, as TCP grows back by acknowledgements: the
            // key's normal latency is known by then, and an answer above it stops the growth.
            leaveLevel();
            allowed++;
            if (allowed >= recovery) {
                recovery = 0;
            }
            newLevel(0);
            return true;
        }
        int round = Math.max(SAMPLES, allowed);
        if (ceiling != 0 && allowed >= ceiling && levelAnswers >= round) {
            ceiling = 0; // a round at the level that once overloaded it, without overload: that is forgotten
            probeWait = FIRST_PROBE;
        }
        int wait = ceiling != 0 && allowed + 1 == ceiling ? Math.max(probeWait, round) : round;
        if (levelAnswers < wait) {
            return false;
        }
        leaveLevel();
        int before = allowed;
        allowed = slowStart ? Math.min(limit, 2 * allowed) : allowed + 1;
        newLevel(before);
        return true;
    }

    /** A new limit: its answers counted afresh once the {@code inFlight} requests sent before it are back. */
    private void newLevel(int inFlight) {
        levelAnswers = 0;
        levelSum = 0;
        levelSquares = 0;
        stale = inFlight;
    }
}
