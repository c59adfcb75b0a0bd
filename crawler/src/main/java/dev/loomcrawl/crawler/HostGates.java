package dev.loomcrawl.crawler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Politeness for the whole process: at most {@code permitsPerHost} requests in flight to one
 * {@code host:port}, whichever job (or {@code /fetch} call) makes them, and no request to a host while it
 * rests after asking for it ({@code Retry-After}).
 *
 * <p>A job that finds a host full is not left polling: it registers a {@link Listener} with the refusal,
 * atomically, and is told when a permit of that host comes free. Each host's state changes only inside
 * one {@link ConcurrentHashMap#compute} of its entry, and listeners are called after it, with no lock of
 * ours held, so a job's own lock is never taken under another's.
 */
final class HostGates {

    /** Told once when a host it found full (or resting) may be tried again. */
    interface Listener {
        void opened(String hostKey);
    }

    /** What {@link #tryEnter} found: in, full (the listener will be told), or resting until a time. */
    record Entry(boolean entered, long restUntilNanos) {
        static final Entry IN = new Entry(true, 0);
        static final Entry FULL = new Entry(false, 0);

        boolean resting() {
            return !entered && restUntilNanos != 0;
        }
    }

    private static final class Gate {
        volatile int inUse; // changed only inside compute(); read outside it for figures
        volatile long restUntil; // System.nanoTime(); 0 when not resting; written only inside compute()
        List<Listener> waiting;
    }

    private final int permitsPerHost;
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    HostGates(int permitsPerHost) {
        if (permitsPerHost < 1) {
            throw new ConfigException("perHost", permitsPerHost, "must be at least 1, was " + permitsPerHost);
        }
        this.permitsPerHost = permitsPerHost;
    }

    int permitsPerHost() {
        return permitsPerHost;
    }

    /**
     * Takes a permit of {@code hostKey} if one is free and the host is not resting. When it is full,
     * {@code listener} is registered in the same step and told when a permit comes free.
     */
    Entry tryEnter(String hostKey, long now, Listener listener) {
        Entry[] result = new Entry[1];
        gates.compute(hostKey, (key, gate) -> {
            Gate g = gate != null ? gate : new Gate();
            if (g.restUntil != 0 && g.restUntil - now > 0) {
                result[0] = new Entry(false, g.restUntil);
            } else if (g.inUse < permitsPerHost) {
                g.restUntil = 0;
                g.inUse++;
                result[0] = Entry.IN;
            } else {
                if (g.waiting == null) {
                    g.waiting = new ArrayList<>(2);
                }
                if (!g.waiting.contains(listener)) {
                    g.waiting.add(listener);
                }
                result[0] = Entry.FULL;
            }
            return g.inUse == 0 && g.restUntil == 0 && g.waiting == null ? null : g;
        });
        return result[0];
    }

    /**
     * The server asked {@code hostKey} to rest until {@code restUntilNanos}: no one enters before. Called
     * while the caller still holds its permit, so the rest is in place before anything else of the host moves.
     */
    void rest(String hostKey, long restUntilNanos) {
        gates.compute(hostKey, (key, gate) -> {
            Gate g = gate != null ? gate : new Gate(); // a host a cluster node takes over, resting still
            if (g.restUntil == 0 || restUntilNanos - g.restUntil > 0) {
                g.restUntil = restUntilNanos;
            }
            return g;
        });
    }

    /** How long {@code hostKey} still rests, in ms (0 if it does not): handed on with the host to another node. */
    long restLeftMillis(String hostKey) {
        Gate g = gates.get(hostKey);
        long left = g == null || g.restUntil == 0 ? 0 : g.restUntil - System.nanoTime();
        return left <= 0 ? 0 : java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left);
    }

    /**
     * Frees a permit of {@code hostKey}; if the server asked for a rest, no one may enter before
     * {@code restUntilNanos} (0: no rest). Whoever found the host full is told it may try again.
     */
    void exit(String hostKey, long restUntilNanos) {
        List<Listener> wake = new ArrayList<>(0);
        gates.computeIfPresent(hostKey, (key, g) -> {
            g.inUse--;
            if (restUntilNanos != 0 && (g.restUntil == 0 || restUntilNanos - g.restUntil > 0)) {
                g.restUntil = restUntilNanos;
            }
            if (g.waiting != null) {
                wake.addAll(g.waiting);
                g.waiting = null;
            }
            boolean resting = g.restUntil != 0 && g.restUntil - System.nanoTime() > 0;
            return g.inUse == 0 && !resting ? null : g;
        });
        for (Listener listener : wake) {
            listener.opened(hostKey); // outside compute: the listener takes its own lock
        }
    }

    /**
     * Waits for a permit of {@code hostKey} the plain blocking way, for one-off fetches: cheap on a virtual
     * thread, which unmounts while it waits.
     */
    void enter(String hostKey) throws InterruptedException {
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
    boolean resting(String hostKey) {
        Gate g = gates.get(hostKey);
        long until = g == null ? 0 : g.restUntil;
        return until != 0 && until - System.nanoTime() > 0;
    }

    int inUse(String hostKey) {
        Gate g = gates.get(hostKey);
        return g == null ? 0 : g.inUse;
    }

    /** The {@code limit} hosts with the most permits taken, busiest first. */
    Map<String, Integer> busiest(int limit) {
        Map<String, Integer> top = new LinkedHashMap<>();
        gates.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue().inUse))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
