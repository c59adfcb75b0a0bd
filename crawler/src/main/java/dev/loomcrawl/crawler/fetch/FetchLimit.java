package dev.loomcrawl.crawler.fetch;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * How many fetches the whole process has in flight at most: as many as the CPU can carry without making
 * every response wait for it.
 *
 * <p>Virtual threads make waiting free, so a crawler can start thousands of fetches at once; but on two
 * cores the responses then queue for the CPU, measured latency grows past the server's, every request
 * costs more (the JDK client's connection pool and timers grow with what is in flight) and fetches time out
 * through no fault of the server. Two measurements decide, every {@link #PERIOD}:
 * <ul>
 *   <li><b>carrier lateness</b>: a probe virtual thread sleeps {@link #PERIOD} and measures how late it
 *       wakes, the queue every fetch's continuation waits in;
 *   <li><b>latency inflation</b>: fetch time, smoothed over the last hundred or so answered page requests,
 *       against the best it has been since a hundred had come (a minimum that drifts up slowly, so a lasting
 *       change of hosts is learned; the best of fewer is the luck of a few fast answers, which no later period
 *       could come near where answers vary). Each request's own time ({@link #answered}), not how long its
 *       slot was held: a host's first slot holds its robots.txt and its first page, two latencies, and read as
 *       an inflation of 2 at every crawl's second round it made the limit fall twice as the first pages came
 *       in (the demo then fetched 1,157 of its 1,600 second-round pages at once and the rest a whole latency
 *       later).
 * </ul>
 * Both up: the limit falls by 15%; so it does while the store is behind (its writer's queue over half full):
 * results then come faster than they can be written, and more fetches only hold more pages in memory while they
 * wait (on {@code huge} with {@code --content}, 19,000 page records alive at once, and three times the full
 * collections). Both calm, and the limit in use: it doubles until it first falls (the
 * first second of a crawl must not be spent ramping up), then grows by a 32nd a period, since both signals
 * trail the limit by a fetch's time. It settles where fetches take at most about 1.5 times the servers' own
 * time: fewer in flight would lose throughput, more would only queue. Lateness alone is not enough to
 * shrink: on pages that take a second, 20 ms of it is noise. Netflix's concurrency-limits (Vegas, Gradient2) were weighed first: their one-second
 * windows and growth of a few permits per window suit a long-running server, not a four-second crawl, and
 * they read raw round-trip times, which in a crawl differ by host by design.
 */
public final class FetchLimit implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(50);
    /** Carrier lateness under which the CPU has room, or a hundredth of the best fetch time if that is more. */
    static final double ROOM_MILLIS = 4;
    /** Carrier lateness over which responses may be waiting on us. */
    static final double OVERLOAD_MILLIS = 15;
    /** Smoothed fetch time over its best, above which responses are waiting on us. */
    static final double INFLATED = 1.5;
    /** Smoothed fetch time over its best, under which the servers set the pace. */
    static final double CALM = 1.25;
    /** After the ramp-up, a calm limit grows by this fraction of itself per {@link #PERIOD}: ~1.8× a second. */
    static final int GROWTH_DIVISOR = 32;
    /** The answers the smoothed fetch time is the mean of, about: a weight of 1/100 each. */
    static final int WINDOW = 100;
    /** How fast the best fetch time forgets, per {@link #PERIOD}: about 1% a second. */
    private static final double BEST_DRIFT = 1.0005;

    /** A {@link Semaphore} whose permits can be taken back: the limit can fall below what is in flight. */
    private static final class Permits extends Semaphore {
        Permits(int permits) {
            super(permits);
        }

        void reduce(int n) {
            reducePermits(n);
        }
    }

    private final int min;
    private final int max;
    private final Permits permits;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final @Nullable Thread probe;
    private final BooleanSupplier storeBehind;
    private volatile int limit;
    private volatile double lagMillis;
    private volatile double fetchMillis; // smoothed fetch time, our own queueing included; 0 until a fetch ends
    private volatile int answers; // up to WINDOW; racy, as fetchMillis: only whether a window's worth has come matters
    private double bestFetchMillis = Double.MAX_VALUE; // the probe's alone
    private boolean rampUp = true; // the probe's alone: until the limit first falls
    private volatile boolean closed;

    /**
     * @param min the limit never falls below this
     * @param max nor rises above this
     * @param adaptive false: a fixed limit of {@code max}
     * @param storeBehind whether the store's writer is behind the fetches (see the class comment)
     */
    public FetchLimit(int min, int max, boolean adaptive, BooleanSupplier storeBehind) {
        this.min = Math.min(min, max);
        this.max = max;
        this.storeBehind = storeBehind;
        this.limit = adaptive ? Math.max(this.min, Math.min(max, 1_024)) : max;
        this.permits = new Permits(limit);
        this.probe = adaptive ? Thread.ofVirtual().name("fetch-limit-probe").start(this::probe) : null;
    }

    /** A fetch slot; waits while the process is at its limit. */
    public Slot acquire() throws InterruptedException {
        permits.acquire();
        inFlight.incrementAndGet();
        return new Slot();
    }

    /** One fetch's place in the limit; {@link #close} gives it back, once. */
    public final class Slot implements AutoCloseable {
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Slot() {}

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                inFlight.decrementAndGet();
                permits.release();
            }
        }
    }

    /**
     * A request was answered (any status) after {@code nanos}, from its start to its body read, our own
     * queueing for the response included: the fetch time whose inflation the limit watches.
     */
    public void answered(long nanos) {
        double millis = nanos / 1e6;
        int n = answers;
        if (n < WINDOW) {
            answers = n + 1; // counted only up to a window: a service's answers would overflow an int in weeks
        }
        double smoothed = fetchMillis;
        // A racy smoothed mean is enough for a threshold: a lost update only slows it a little. The plain mean
        // until a window's worth: an average started from the first answer would weigh that answer as a hundred.
        fetchMillis = smoothed + (millis - smoothed) / Math.min(n + 1, WINDOW);
    }

    /** The smoothed fetch time, ms; 0 before the first answer. */
    double fetchMillis() {
        return fetchMillis;
    }

    public int limit() {
        return limit;
    }

    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Whether our own carriers run so late that a fetch's time says more about this process than about the
     * server: then it is no measure of a server's health (adaptive politeness leaves it out).
     */
    public boolean busy() {
        return lagMillis() > OVERLOAD_MILLIS;
    }

    /** How late the probe last woke, smoothed: the queue delay of our own carrier threads. */
    public double lagMillis() {
        return lagMillis;
    }

    private void probe() {
        long period = PERIOD.toNanos();
        try {
            while (!closed) {
                long start = System.nanoTime();
                Thread.sleep(PERIOD); // the measurement itself: how late does this wake?
                double late = Math.max(0, System.nanoTime() - start - period) / 1e6;
                lagMillis = lagMillis * 0.5 + late * 0.5;
                double fetch = fetchMillis;
                if (answers >= WINDOW) { // the best of fewer answers is the luck of a few fast ones
                    bestFetchMillis = Math.min(bestFetchMillis * BEST_DRIFT, fetch);
                }
                double inflation = bestFetchMillis == Double.MAX_VALUE ? 1 : fetch / bestFetchMillis;
                int next = step(limit, inFlight.get(), lagMillis, room(bestFetchMillis), inflation,
                        storeBehind.getAsBoolean(), min, max, rampUp);
                rampUp &= next >= limit;
                adjust(next);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /**
     * The next limit, from the current one, what is in flight, how late carriers run, how far smoothed fetch
     * time is over its best, and whether the store is behind. Pure arithmetic.
     *
     * @param roomMillis carrier lateness under which there is room to grow ({@link #room})
     * @param storeBehind the store's writer is behind the fetches: the limit falls whatever the other signals
     * @param rampUp true until the limit first falls: a calm limit then doubles (the first second of a crawl
     *     must not be spent ramping up); after that it grows by {@link #GROWTH_DIVISOR a 32nd}, as both
     *     signals trail the limit by a fetch's time (six to nine periods), and doubling at every calm period
     *     overshot them: the limit swung between 600 and 8,700 on {@code huge}
     */
    static int step(int limit, int inFlight, double lagMillis, double roomMillis, double inflation, boolean storeBehind,
            int min, int max, boolean rampUp) {
        if (storeBehind || lagMillis > OVERLOAD_MILLIS && inflation > INFLATED) {
            return Math.max(min, limit - Math.max(1, limit * 15 / 100));
        }
        if (lagMillis < roomMillis && inflation < CALM && inFlight >= limit * 3 / 4) {
            return (int) Math.min(max, limit + (rampUp ? limit : Math.max(1, limit / GROWTH_DIVISOR)));
        }
        return limit;
    }

    /**
     * How late carriers may run with room to spare: {@link #ROOM_MILLIS}, or a hundredth of the best fetch time
     * where fetches take longer than 400 ms. Lateness matters against the fetch it delays: in a cold JVM's
     * first seconds the JIT and class loading keep carriers 5 to 40 ms late, which held the limit at 1,024
     * through the demo's second round (1,600 pages of 1 s, inflation 1.0), and 576 pages waited a whole second.
     */
    static double room(double bestFetchMillis) {
        return bestFetchMillis == Double.MAX_VALUE ? ROOM_MILLIS : Math.max(ROOM_MILLIS, bestFetchMillis / 100);
    }

    private void adjust(int next) {
        int current = limit;
        if (next > current) {
            permits.release(next - current);
        } else if (next < current) {
            permits.reduce(current - next);
        }
        limit = next;
    }

    @Override
    public void close() {
        closed = true;
        if (probe != null) {
            probe.interrupt();
        }
    }
}
