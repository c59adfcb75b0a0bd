package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyView;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Politeness for the whole process: one {@link java.util.concurrent.Semaphore} per politeness key (a
 * {@link Gate}), whichever job or {@code /fetch} call makes the request. A frontier takes a {@link Permit}
 * with {@link #tryEnter}; the lease's outcome gives it back with {@link #exit}.
 *
 * <p><b>One key space.</b> A request enters the gate of its {@code host:port} always, and the gate of its
 * registered domain or of its address too once any job of the process (or an operator's setting) uses that
 * {@link PolitenessKey}: two jobs with different keys still never exceed a limit at the server. A kind comes
 * into force before its job hands anything out, and requests already in flight are counted on its gates then.
 *
 * <p>A job that finds a gate full is not left polling: it registers a {@link Listener} and is told when a
 * permit comes free (or an address it waited for is known). It registers before it tries again, so a permit
 * freed in between is never missed. Listeners are called with no lock of ours held.
 */
public final class HostGates {

    /** Told when a host it found full may be tried again (perhaps more than once). */
    public interface Listener {
        void opened(String hostKey);

        /** An operator changed a key's setting: any host may be ready now, or be held longer. */
        default void reconsider() {}
    }

    /** What {@link #tryEnter} found: in with a permit, full (the listener will be told), or closed until a time. */
    public record Entry(@Nullable Permit permit, long restUntilNanos) {
        static final Entry FULL = new Entry(null, 0);

        public boolean entered() {
            return permit != null;
        }

        public boolean resting() {
            return permit == null && restUntilNanos != 0;
        }
    }

    private final GateTable table;
    private final BooleanSupplier selfBusy;
    private final KeySpace keys = new KeySpace();
    /** Frontiers told when a setting changes; a frontier whose job is over is let go by the collector. */
    private final Set<Listener> watchers = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /**
     * @param defaultLimit requests in flight per key unless an operator set another
     * @param adaptive whether each key's limit and gap follow its server's health ({@link Adaptive})
     */
    public HostGates(int defaultLimit, boolean adaptive) {
        this(defaultLimit, adaptive, () -> false);
    }

    /**
     * @param selfBusy whether this process's own CPU makes answers late now: their latency is then no measure
     *     of a server's health, and adaptivity does not act on it (errors still count)
     */
    public HostGates(int defaultLimit, boolean adaptive, BooleanSupplier selfBusy) {
        if (defaultLimit < 1) {
            throw new ConfigException("perHost", defaultLimit, "must be at least 1, was " + defaultLimit);
        }
        this.table = new GateTable(defaultLimit, adaptive);
        this.selfBusy = selfBusy;
    }

    /** Requests of every job count on {@code kind}'s gates from now on, those in flight included. */
    public void inForce(PolitenessKey kind) {
        keys.inForce(kind, table);
    }

    /** The key of {@code target} at {@code kind}, looking its address up if need be. */
    public String key(Target target, PolitenessKey kind) {
        return keys.key(target, kind);
    }

    /**
     * Takes a permit on every gate of {@code target} in force, if each has one free and none is closed; at its
     * {@code kind}'s gate (not the host's, which its host queue limits) only while fewer than {@code cap} of
     * the key's requests are in flight. When full, {@code listener} is told when to try again.
     */
    public Entry tryEnter(Target target, PolitenessKey kind, int cap, long now, Listener listener) {
        keys.entering();
        try {
            List<Gate> told = new ArrayList<>(2);
            while (true) {
                Set<PolitenessKey> kinds = keys.kinds();
                Gate[] held = new Gate[kinds.size()];
                int n = 0;
                for (PolitenessKey l : kinds) {
                    String key = keys.keyOf(target, l, listener);
                    if (key == null) {
                        return Entry.FULL; // its address is being looked up: the listener is told
                    }
                    held[n++] = table.gate(key, l);
                }
                long until = 0;
                for (Gate g : held) {
                    long blocked = g.blockedUntil(now);
                    until = until == 0 || blocked != 0 && blocked - until > 0 ? blocked : until;
                }
                if (until != 0) {
                    return new Entry(null, until);
                }
                Gate full = Gate.takeAll(held, kind, cap);
                if (full == null) {
                    int[] loads = new int[held.length];
                    for (int i = 0; i < held.length; i++) {
                        loads[i] = held[i].started(now);
                    }
                    Permit p = new Permit(target, held, loads);
                    keys.out(p);
                    return new Entry(p, 0);
                }
                if (full.dead()) {
                    continue; // dropped meanwhile: the key has a new gate
                }
                if (told.contains(full)) {
                    return Entry.FULL;
                }
                full.waiting.add(new Gate.Waiter(listener, target.hostKey())); // then once more: no permit freed meanwhile is missed
                told.add(full);
            }
        } finally {
            keys.entered();
        }
    }

    /**
     * The request of {@code permit} is over after {@code nanos} ({@code error}: it was answered 5xx or 429, or
     * not at all for trouble of the server's); if the server asked for a rest, no one may enter its host before
     * {@code restUntilNanos} (0: no rest). Whoever found a gate full is told to try again.
     */
    public void exit(Permit permit, long restUntilNanos, long nanos, boolean error) {
        if (!keys.back(permit)) {
            return; // given back already
        }
        long now = System.nanoTime();
        if (restUntilNanos != 0) {
            rest(permit.target.hostKey(), restUntilNanos);
        }
        boolean selfLate = nanos > 0 && selfBusy.getAsBoolean(); // late by our doing, maybe: little to learn
        // An error that asked for a rest (429 or 503 with Retry-After) is obeyed by that rest, once; it is no
        // sign of an overload that the limit should answer for the rest of the crawl.
        answering(permit);
        Gate[] gates = permit.gates();
        for (int i = 0; i < gates.length; i++) {
            gates[i].ended(new Reply(nanos, selfLate, error && restUntilNanos == 0, permit.load(i)), now);
            gates[i].wake();
        }
        table.sweep(now);
    }

    /** The answer to the request of {@code permit} has begun to come: its server is done with it. Once; any thread. */
    public void answering(Permit permit) {
        if (permit.firstAnswer()) {
            Gate[] gates = permit.gates();
            for (int i = 0; i < gates.length; i++) {
                if (permit.load(i) != 0) { // 0: a gate that came into force in flight never counted it
                    gates[i].answering();
                }
            }
        }
    }

    /** Gives back the permit of a request that never started: nothing learnt of its server. */
    public void giveBack(Permit permit) {
        if (keys.back(permit)) {
            answering(permit);
            for (Gate g : permit.gates()) {
                g.untake();
                g.wake();
            }
        }
    }

    /**
     * Why no request to {@code target} may start for at least {@code nanos} more (a rest its server asked for, an
     * operator's pause, on any of its keys in force), with how long is left; null when nothing holds it so long.
     * Asks no DNS: it is asked for every queued host, each time a progress line is drawn.
     */
    public @Nullable String held(Target target, long now, long nanos) {
        return firstKey(target, gate -> gate.held(now, nanos));
    }

    /**
     * Why requests to {@code target} have been held below their limit by adaptive politeness, with all they are
     * allowed in flight, for at least {@code nanos} (on any of its keys in force); null when they are not.
     */
    public @Nullable String heldBack(Target target, long now, long nanos) {
        return firstKey(target, gate -> gate.heldBack(now, nanos));
    }

    /** What {@code ask} says of the first of the target's gates it says something of, naming a key not its host. */
    private @Nullable String firstKey(Target target, Function<Gate, @Nullable String> ask) {
        for (PolitenessKey kind : keys.kinds()) {
            String key = keys.knownKey(target, kind);
            Gate gate = key == null ? null : table.find(key);
            String why = gate == null ? null : ask.apply(gate);
            if (why != null) {
                return kind == PolitenessKey.HOST ? why : why + " (its " + kind.label() + " " + key + ")";
            }
        }
        return null;
    }

    /** Waits for a permit the plain blocking way, for one-off fetches: cheap on a virtual thread. */
    public Permit enter(Target target, PolitenessKey kind) throws InterruptedException {
        inForce(kind);
        while (true) {
            CountDownLatch opened = new CountDownLatch(1);
            Entry entry = tryEnter(target, kind, table.defaultLimit(), System.nanoTime(), key -> opened.countDown());
            if (entry.permit() instanceof Permit permit) {
                return permit;
            }
            long wait = entry.resting() ? entry.restUntilNanos() - System.nanoTime() : TimeUnit.SECONDS.toNanos(1);
            if (wait > 0) {
                opened.await(wait, TimeUnit.NANOSECONDS); // a permit freed meanwhile wakes us early
            }
        }
    }

    /** The server asked {@code hostKey} for no request before {@code restUntilNanos}. */
    public void rest(String hostKey, long restUntilNanos) {
        table.gate(hostKey, PolitenessKey.HOST).rest(restUntilNanos);
    }

    /** How long {@code hostKey} still rests, in ms (0 if it does not): handed on with the host to another node. */
    public long restLeftMillis(String hostKey) {
        Gate g = table.find(hostKey);
        long left = g == null || g.restUntil() == 0 ? 0 : g.restUntil() - System.nanoTime();
        return left <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(left);
    }

    /**
     * Whether a rest or a pause holds on any gate {@code permit} holds: a task asks just before it sends,
     * because a rest or pause that came after its lease was handed out binds it too.
     */
    public boolean resting(Permit permit) {
        long now = System.nanoTime();
        for (Gate g : permit.gates()) {
            if (g.closed(now)) {
                return true;
            }
        }
        return false;
    }

    /** Requests in flight under {@code key} now. */
    public int inUse(String key) {
        Gate g = table.find(key);
        return g == null ? 0 : g.inUse();
    }

    /** The {@code limit} keys with the most requests in flight, busiest first. */
    public Map<String, Integer> busiest(int limit) {
        return table.busiest(limit);
    }

    /**
     * Sets what an operator asked of {@code key} (an empty setting: back to the defaults); it applies at once
     * to every job, and brings the key's kind into force.
     */
    public void set(String key, HostSetting setting) {
        inForce(PolitenessKey.kindOf(key));
        table.set(key, setting);
        List<Listener> told;
        synchronized (watchers) {
            told = List.copyOf(watchers);
        }
        told.forEach(Listener::reconsider); // a host parked until a pause's end may go now, a running one must stop
    }

    /** {@code listener} (a job's frontier) is told of every change of a setting, while it is reachable. */
    public void watch(Listener listener) {
        watchers.add(listener);
    }

    /** What operators set, by key. */
    public Map<String, HostSetting> settings() {
        return table.settings();
    }

    /**
     * The keys with a gate now, or a setting, or URLs queued, busiest first.
     *
     * @param queued URLs waiting in the jobs' queues, by host
     */
    public List<KeyView> keys(Map<Target, Integer> queued) {
        Map<String, Integer> byKey = new HashMap<>();
        queued.forEach((target, n) -> {
            for (PolitenessKey l : keys.kinds()) {
                String key = keys.keyOf(target, l, null);
                if (key != null) {
                    byKey.merge(key, n, Integer::sum);
                    table.gate(key, l); // shown with its limit even before its first request
                }
            }
        });
        return table.views(byKey, System.nanoTime());
    }

    /** One key as {@link #keys} shows it; a key with no gate now shows its defaults. */
    public KeyView key(String key, Map<Target, Integer> queued) {
        return keys(queued).stream().filter(v -> v.key().equals(key)).findFirst()
                .orElseGet(() -> table.gate(key, PolitenessKey.kindOf(key)).view(System.nanoTime(), 0));
    }
}
