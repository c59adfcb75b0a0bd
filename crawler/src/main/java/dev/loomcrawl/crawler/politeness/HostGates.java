package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.ConfigException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Politeness for the whole process: one {@link Semaphore} per {@code host:port} with {@code permitsPerHost}
 * permits, whichever job (or {@code /fetch} call) makes the request, and no request to a host while it
 * rests after asking for it ({@code Retry-After}). A frontier takes a permit with {@link #tryEnter}; the
 * lease's outcome gives it back with {@link #exit}.
 *
 * <p>A job that finds a host full is not left polling: it registers a {@link Listener} and is told when a
 * permit of that host comes free. It registers before it tries the semaphore a second time, so a permit freed
 * in between is never missed. Listeners are called with no lock of ours held, so a job's own lock is never
 * taken under another's.
 *
 * <p>A host's gate is dropped when its last permit comes back and it does not rest, so a crawl of a million
 * hosts keeps gates only for those busy now. Dropping takes every permit first and marks the gate dead: a
 * frontier that still holds the old gate cannot enter it, and looks the host up again.
 */
public final class HostGates {

    /** Told when a host it found full may be tried again (perhaps more than once). */
    public interface Listener {
        void opened(String hostKey);
    }

    /** What {@link #tryEnter} found: in, full (the listener will be told), or resting until a time. */
    public record Entry(boolean entered, long restUntilNanos) {
        static final Entry IN = new Entry(true, 0);
        static final Entry FULL = new Entry(false, 0);

        public boolean resting() {
            return !entered && restUntilNanos != 0;
        }
    }

    private final class Gate {
        final Semaphore permits = new Semaphore(permitsPerHost);
        /** {@link System#nanoTime()} until which the host rests; 0 when it does not. */
        final AtomicLong restUntil = new AtomicLong();
        final ConcurrentLinkedQueue<Listener> waiting = new ConcurrentLinkedQueue<>();
        /** Set once every permit is taken for good: the gate is out of the map. */
        volatile boolean dead;

        public boolean resting(long now) {
            long until = restUntil.get();
            return until != 0 && until - now > 0;
        }

        void restUntil(long until) {
            restUntil.accumulateAndGet(until, (old, now) -> old == 0 || now - old > 0 ? now : old);
        }
    }

    private final int permitsPerHost;
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    public HostGates(int permitsPerHost) {
        if (permitsPerHost < 1) {
            throw new ConfigException("perHost", permitsPerHost, "must be at least 1, was " + permitsPerHost);
        }
        this.permitsPerHost = permitsPerHost;
    }

    int permitsPerHost() {
        return permitsPerHost;
    }

    private Gate gate(String hostKey) {
        return gates.computeIfAbsent(hostKey, key -> new Gate());
    }

    /**
     * Takes a permit of {@code hostKey} if one is free and the host is not resting. When it is full,
     * {@code listener} is told when a permit comes free.
     */
    public Entry tryEnter(String hostKey, long now, Listener listener) {
        while (true) {
            Gate g = gate(hostKey);
            if (g.resting(now)) {
                return new Entry(false, g.restUntil.get());
            }
            if (g.permits.tryAcquire()) {
                return Entry.IN;
            }
            if (g.dead) {
                continue; // dropped meanwhile: the host has a new gate
            }
            if (!g.waiting.contains(listener)) {
                g.waiting.add(listener);
            }
            if (g.permits.tryAcquire()) {
                return Entry.IN; // a permit came back before the listener was in: it may be told once for nothing
            }
            if (!g.dead) {
                return Entry.FULL;
            }
        }
    }

    /**
     * The server asked {@code hostKey} to rest until {@code restUntilNanos}: no one enters before. Called
     * while the caller still holds its permit, so the rest is in place before anything else of the host moves.
     */
    public void rest(String hostKey, long restUntilNanos) {
        gate(hostKey).restUntil(restUntilNanos); // a host a cluster node takes over may rest with no permit out
    }

    /** How long {@code hostKey} still rests, in ms (0 if it does not): handed on with the host to another node. */
    public long restLeftMillis(String hostKey) {
        Gate g = gates.get(hostKey);
        long left = g == null || g.restUntil.get() == 0 ? 0 : g.restUntil.get() - System.nanoTime();
        return left <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(left);
    }

    /**
     * Gives back a permit of {@code hostKey}; if the server asked for a rest, no one may enter before
     * {@code restUntilNanos} (0: no rest). Whoever found the host full is told it may try again.
     */
    public void exit(String hostKey, long restUntilNanos) {
        Gate g = gates.get(hostKey); // a permit out keeps its gate in the map
        if (restUntilNanos != 0) {
            g.restUntil(restUntilNanos);
        }
        g.permits.release();
        Listener listener;
        while ((listener = g.waiting.poll()) != null) {
            listener.opened(hostKey);
        }
        if (!g.resting(System.nanoTime()) && g.waiting.isEmpty() && g.permits.tryAcquire(permitsPerHost)) {
            g.dead = true; // idle: no permit can be had of it any more
            gates.remove(hostKey, g);
            while ((listener = g.waiting.poll()) != null) {
                listener.opened(hostKey); // registered just now: it tries the new gate
            }
        }
    }

    /**
     * Waits for a permit of {@code hostKey} the plain blocking way, for one-off fetches: cheap on a virtual
     * thread, which unmounts while it waits.
     */
    public void enter(String hostKey) throws InterruptedException {
        while (true) {
            CountDownLatch opened = new CountDownLatch(1);
            Entry entry = tryEnter(hostKey, System.nanoTime(), key -> opened.countDown());
            if (entry.entered()) {
                return;
            }
            if (entry.resting()) {
                long wait = entry.restUntilNanos() - System.nanoTime();
                if (wait > 0) {
                    opened.await(wait, TimeUnit.NANOSECONDS); // a permit freed meanwhile wakes us early
                }
            } else {
                opened.await();
            }
        }
    }

    /**
     * Whether the server asked {@code hostKey} to rest and the rest has not run out: a task checks this just
     * before it sends, because a rest that came in after its lease was handed out binds it too.
     */
    public boolean resting(String hostKey) {
        Gate g = gates.get(hostKey);
        return g != null && g.resting(System.nanoTime());
    }

    /** Permits of {@code hostKey} taken now. */
    public int inUse(String hostKey) {
        Gate g = gates.get(hostKey);
        return g == null || g.dead ? 0 : permitsPerHost - g.permits.availablePermits();
    }

    /** The {@code limit} hosts with the most permits taken, busiest first. */
    public Map<String, Integer> busiest(int limit) {
        Map<String, Integer> top = new LinkedHashMap<>();
        gates.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), inUse(e.getKey())))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
