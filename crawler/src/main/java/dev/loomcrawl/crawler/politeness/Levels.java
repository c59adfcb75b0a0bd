package dev.loomcrawl.crawler.politeness;

/**
 * What each limit a key has had costs its server, Vegas's question ("did one more in flight only make the answers
 * slower?"): the answers at the current limit (the <em>level</em>), from requests sent while the key used all of
 * it, against the key's <em>unloaded</em> latency (Vegas's BaseRTT). Built for servers whose answers vary by
 * themselves, as most do (a page twice as slow as the last is no news), so that their spread is not read as an
 * overload:
 * <ul>
 *   <li>the unloaded latency pools answers (slow start's, then each block of a level not above it), where Vegas
 *       keeps the lowest level's mean: the lowest of many noisy means is low by chance, and every level after it
 *       would look slower;
 *   <li>a level is judged on blocks of its answers, not on every answer, and by Welch's test, whose quantile
 *       grows when either side has few answers (slow start's are few, and the fastest of their burst), or by
 *       Student's where Welch's has too few to say anything;
 *   <li>a cut is tested by the level below it: if that answers no faster, the cut bought nothing ({@link
 *       Judgement#NO_RELIEF}) and the unloaded latency takes in what it missed; at 1, whose answers become the
 *       unloaded latency, a cut to 1 is undone unless the level cut is clearly slower than they are (a level cut
 *       before a block of its own: unless the recent latency it was cut on is slower than they are).
 * </ul>
 * Not thread-safe: its {@link Adaptive} is called under its gate's lock.
 */
final class Levels {
    /** What a block of a level's answers says. */
    enum Judgement {
        /** Not a whole block yet. */
        NONE,
        /** Not above unloaded by {@value Levels#ABOVE} standard errors. */
        FINE,
        /** Above unloaded by {@value Levels#ABOVE} standard errors, not clearly slower: too little to cut on. */
        DOUBTFUL,
        /** Clearly slower than unloaded: the level costs the server. */
        SLOWER,
        /** The first block after a cut for slowness, not {@value Levels#RELIEF}× faster than the cut level's. */
        NO_RELIEF
    }

    /** The level's answers not judged yet. */
    private final Latencies block = new Latencies();
    /** How many answers the level's next judgement takes (0: a round, the first). */
    private int blockSize;
    private int answers;
    private final Latencies unloaded = new Latencies();
    /** The answers of the level last cut for slowness, until the level below it has been judged. */
    private final Latencies cut = new Latencies();
    /**
     * The key's recent latency, in ms, at the last cut for slowness, until the level below has been judged (0:
     * none): the cut's evidence where the level cut had no block of its own ({@link #cutting}).
     */
    private double cutRecentMillis;
    /** A cut bought something when the cut level's mean is above this many times the level below's. */
    static final double RELIEF = 1.1;
    /** The most answers a block takes: a level held for a whole crawl is still judged every so often. */
    static final int LONGEST_BLOCK = 64;
    /** A block above the unloaded latency by this many standard errors (or the t quantile) does not join it. */
    static final double ABOVE = 1.5;

    /** One answer's latency, in ms, at the current level. */
    void add(double ms) {
        block.add(ms);
        answers++;
    }

    /** Answers at the current level so far. */
    int count() {
        return answers;
    }

    /** The unloaded latency, in ms (0: not known yet). */
    double unloadedMillis() {
        return unloaded.count() == 0 ? 0 : unloaded.mean();
    }

    /** One of slow start's answers that was not late, in ms: the unloaded latency until the levels say more. */
    void unloaded(double ms) {
        unloaded.add(ms);
    }

    /**
     * The level's answers so far, {@code allowed} in flight, judged once per block: the first a round
     * ({@value Adaptive#SAMPLES} answers at least), each next one twice as long up to {@value #LONGEST_BLOCK}, so
     * that a level a key keeps for a whole crawl is judged a few times and not on every answer, when a server's own
     * noise would sooner or later pass for an overload; a block above the pool is followed by a round again. A
     * block not clearly slower joins the unloaded latency unless it is above it by {@value #ABOVE} standard errors
     * (an overload too small to judge yet must not become the yardstick), or the cut before it bought nothing
     * (then the yardstick was too low); at a limit of 1, which loads the server least, a block replaces it.
     */
    Judgement judge(int allowed) {
        if (blockSize == 0) {
            blockSize = Math.max(Adaptive.SAMPLES, allowed);
        }
        if (block.count() < blockSize) {
            return Judgement.NONE;
        }
        // At 1 this block becomes the yardstick (below): a cut to 1 made against a pool drawn too low, the fast end
        // of a noisy server's answers, is judged again against it, and bought nothing unless clearly slower; one
        // made before the level cut had a block, on the recent latency alone, unless faster than that latency
        boolean relief = cut.count() > 0
                ? cut.mean() > RELIEF * block.mean() && (allowed > 1 || clearlyAbove(cut, block))
                : allowed > 1 || cutRecentMillis == 0 || cutRecentMillis > RELIEF * block.mean();
        cut.clear();
        cutRecentMillis = 0;
        boolean known = unloaded.count() >= 2;
        boolean slower = known && clearlyAbove(block, unloaded);
        boolean clean = !slower && (!known || !above(block, unloaded, ABOVE));
        if (allowed == 1 || !known) {
            unloaded.clear();
            unloaded.addAll(block);
        } else if (clean || !slower && !relief) {
            unloaded.addAll(block);
        }
        if (slower && allowed > 1) {
            return Judgement.SLOWER; // the block stays: it is the cut's evidence
        }
        block.clear();
        if (clean) {
            blockSize = Math.min(2 * blockSize, LONGEST_BLOCK); // a block above the pool is followed by a round
        }
        if (!relief) {
            return Judgement.NO_RELIEF; // one fewer in flight answered as slowly: the cut bought nothing
        }
        return slower ? Judgement.SLOWER : clean ? Judgement.FINE : Judgement.DOUBTFUL;
    }

    /**
     * A cut for slowness: the level's answers so far are what the level below must improve on, or before a block of
     * them, for a cut to 1, the recent latency ({@code recentMillis}) the cut was made on. A baseline drawn from a
     * seed's answer far faster than the server's usual stays low (later answers, above its threshold, count a
     * tenth), so the recent latency crosses it at every level and the cuts step down to 1, where the probe back
     * waits {@value Adaptive#FIRST_PROBE} answers at one at a time. Not so above 1, where a level's first answers
     * may still be slowed by the level cut: undone on them, servers that slow past 2 to 4 were held overloaded in
     * the model.
     */
    void cutting(double recentMillis) {
        cut.clear();
        cutRecentMillis = recentMillis;
        if (block.count() >= Adaptive.SAMPLES) {
            cut.addAll(block);
        }
    }

    /**
     * Whether {@code x} is over {@value Adaptive#RISE}× {@code y} (and {@value Adaptive#MARGIN_MILLIS} ms over it)
     * and clearly above it.
     */
    private static boolean clearlyAbove(Latencies x, Latencies y) {
        return x.mean() > Adaptive.beyond(y.mean(), Adaptive.RISE) && above(x, y, Adaptive.SPREAD);
    }

    /**
     * Welch's test, one-sided: the mean of {@code x} over that of {@code y} by more than the t quantile that
     * {@code z} standard errors are in a normal distribution, for the degrees of freedom of the two samples. With
     * few answers, their spreads are poorly known and the quantile is larger: a handful of answers is no yardstick.
     * Where Welch's degrees of freedom fall under 3 (a side of two or three answers that happened to agree carries
     * all the weight), Student's test: both sides' answers make the one spread they share if nothing changed, which
     * is what the test assumes. Else slow start's two answers, the seed's and one more, could never be told from a
     * level whose every answer came twice as slowly, and that level would join them as the yardstick.
     */
    private static boolean above(Latencies x, Latencies y, double z) {
        double a = x.varianceOfMean();
        double b = y.varianceOfMean();
        if (a + b == 0) {
            return x.mean() > y.mean(); // answers that do not vary at all: the difference is exact
        }
        int nx = x.count();
        int ny = y.count();
        double freedom = (a + b) * (a + b) / (a * a / (nx - 1) + b * b / (ny - 1));
        double error = Math.sqrt(a + b);
        if (freedom < 3) {
            freedom = nx + ny - 2;
            double spread = (x.deviations() + y.deviations()) / freedom; // the pooled variance
            error = Math.sqrt(spread * (1.0 / nx + 1.0 / ny));
        }
        return x.mean() - y.mean() > tQuantile(freedom, z) * error;
    }

    /** Student's t quantile of the normal one {@code z}, by its Cornish-Fisher expansion; below 3 degrees, none. */
    static double tQuantile(double freedom, double z) {
        if (freedom < 3) {
            return Double.MAX_VALUE;
        }
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        return z + (z3 + z) / (4 * freedom) + (5 * z5 + 16 * z3 + 3 * z) / (96 * freedom * freedom)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * freedom * freedom * freedom);
    }

    /** A new limit: its answers are counted afresh. */
    void clear() {
        block.clear();
        blockSize = 0;
        answers = 0;
    }
}
