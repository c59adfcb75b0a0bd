package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jspecify.annotations.Nullable;

/**
 * Which keys a request counts under: its {@code host:port} always, and its registered domain or its address
 * once that {@link PolitenessKey} is in force in the process (a job uses it, or an operator set such a key).
 * Entering reads the kinds in force under a read lock; bringing one into force takes the write lock and counts
 * every permit out on the new kind's gates, so a request in flight is never missed by a limit.
 */
final class KeySpace {
    private final Addresses addresses = new Addresses();
    private final Set<Permit> live = ConcurrentHashMap.newKeySet();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile Set<PolitenessKey> kinds = Collections.unmodifiableSet(EnumSet.of(PolitenessKey.HOST));

    /** The kinds in force, in order: host first. */
    Set<PolitenessKey> kinds() {
        return kinds;
    }

    /** Brings {@code kind} into force: every permit out counts on its gate of {@code table} from now on. */
    void inForce(PolitenessKey kind, GateTable table) {
        if (kinds.contains(kind)) {
            return;
        }
        lock.writeLock().lock();
        try {
            EnumSet<PolitenessKey> now = EnumSet.copyOf(kinds);
            now.add(kind);
            for (Permit p : live) {
                Gate g = table.gate(key(p.target, kind), kind);
                g.force();
                p.add(g);
            }
            kinds = Collections.unmodifiableSet(now);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Held while a request enters: the kinds in force cannot change meanwhile. */
    void entering() {
        lock.readLock().lock();
    }

    void entered() {
        lock.readLock().unlock();
    }

    /** A permit taken: counted on any kind brought into force while it is out. */
    void out(Permit permit) {
        live.add(permit);
    }

    /** A permit given back; false if it was already. */
    boolean back(Permit permit) {
        return live.remove(permit);
    }

    /**
     * The key of {@code target} at {@code kind}; null for an address not known yet ({@code whenKnown}, if not
     * null, is told when it is).
     */
    @Nullable String keyOf(Target target, PolitenessKey kind, HostGates.@Nullable Listener whenKnown) {
        return switch (kind) {
            case HOST -> target.hostKey();
            case DOMAIN -> target.domain();
            case IP -> addresses.of(target.host(), whenKnown == null ? host -> { }
                    : host -> whenKnown.opened(target.hostKey()));
        };
    }

    /**
     * The key of {@code target} at {@code kind} as last known, looking nothing up: null for an address never
     * looked up (no request of the host has entered its gate by address, so none holds it).
     */
    @Nullable String knownKey(Target target, PolitenessKey kind) {
        return kind == PolitenessKey.IP ? addresses.known(target.host()) : keyOf(target, kind, null);
    }

    /** The key of {@code target} at {@code kind}, looking its address up if need be. */
    String key(Target target, PolitenessKey kind) {
        String key = keyOf(target, kind, null);
        return key != null ? key : addresses.resolve(target.host());
    }
}
