package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The hosts a cluster node holds ({@link HostHold}), kept by its heartbeat: renewed, taken up to a fair
 * share of the hosts with work, given back when over it or out of work (only once nothing of theirs is
 * out), and all given back when the node leaves.
 */
final class HostHolds {
    private final ClusterStore db;
    private final NodeSettings settings;
    private final HostGates gates;
    private final ConcurrentHashMap<String, HostHold> holds = new ConcurrentHashMap<>();

    HostHolds(ClusterStore db, NodeSettings settings, HostGates gates) {
        this.db = db;
        this.settings = settings;
        this.gates = gates;
    }

    /** The hold of {@code hostKey}, or null if this node does not hold it (any more). */
    @Nullable HostHold get(String hostKey) {
        return holds.get(hostKey);
    }

    Set<String> keys() {
        return Set.copyOf(holds.keySet());
    }

    /** Extends every lease; those missing from the answer went to another node. */
    void renew(long start) {
        Map<String, ClusterLeases.Hold> renewed = new HashMap<>();
        for (ClusterLeases.Hold h : db.leases().renew(settings.nodeId(), settings.leaseTtl())) {
            renewed.put(h.hostKey(), h);
        }
        for (HostHold hold : List.copyOf(holds.values())) {
            ClusterLeases.Hold now = renewed.get(hold.hostKey);
            if (now == null || now.epoch() != hold.epoch) {
                hold.lost();
                holds.remove(hold.hostKey, hold);
            } else {
                hold.validUntil = start + TimeUnit.MILLISECONDS.toNanos(now.validMillis());
            }
        }
    }

    /**
     * Takes hosts up to a fair share of those with work; gives back hosts over it when a node holds fewer than
     * its share (with hysteresis otherwise, so two nodes do not trade one host back and forth) and hosts with
     * nothing left, once nothing of theirs is out.
     *
     * @param more whether to take hosts (the node runs cluster jobs and is not leaving)
     * @param kinds the politeness keys of the cluster jobs: beyond {@code host}, every host of a key is held by
     *     one node at a time
     * @param gained told of each host taken
     */
    void balance(long start, boolean more, Set<PolitenessKey> kinds, Consumer<String> gained) {
        int withWork = db.leases().hostsWithWork();
        int nodes = Math.max(1, db.leases().liveNodes(settings.leaseTtl()));
        int share = (withWork + nodes - 1) / nodes;
        List<String> idle = db.leases().idleHolds(settings.nodeId());
        for (String hostKey : idle) {
            HostHold hold = holds.get(hostKey);
            if (hold != null) {
                hold.giving = true;
            }
        }
        int held = (int) holds.values().stream().filter(h -> !h.giving).count();
        // Over the share: give some back when another node wants them (one that joined holds none) or when far
        // over; one host over with every node at its share is no reason to move a host and its queue.
        if (held > share + 1 || held > share && db.leases().fewestHeld(settings.leaseTtl()) < share) {
            // chosen by name, so that the choice holds from one beat to the next
            holds.values().stream().filter(h -> !h.giving).sorted(Comparator.comparing(h -> h.hostKey))
                    .limit(held - share).forEach(h -> h.giving = true);
            held = share;
        }
        for (HostHold hold : List.copyOf(holds.values())) {
            if (hold.giving && hold.goneIfIdle()) {
                holds.remove(hold.hostKey, hold);
                db.leases().release(settings.nodeId(), hold.hostKey, hold.epoch, gates.restLeftMillis(hold.hostKey));
            }
        }
        if (more && held < share) {
            for (ClusterLeases.Hold h : db.leases().acquire(settings.nodeId(), share - held, settings.leaseTtl(),
                    kinds.contains(PolitenessKey.DOMAIN), kinds.contains(PolitenessKey.IP))) {
                HostHold hold = new HostHold(h.hostKey(), h.epoch(), start + TimeUnit.MILLISECONDS.toNanos(h.validMillis()));
                holds.put(h.hostKey(), hold);
                if (h.restMillis() > 0) {
                    gates.rest(h.hostKey(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(h.restMillis()));
                }
                gained.accept(h.hostKey());
            }
        }
    }

    /** Gives back every host with nothing out (the others expire by themselves); {@code trouble} hears of failures. */
    void releaseAll(BiConsumer<String, RuntimeException> trouble) {
        for (HostHold hold : List.copyOf(holds.values())) {
            if (hold.goneIfIdle()) {
                try {
                    db.leases().release(settings.nodeId(), hold.hostKey, hold.epoch, gates.restLeftMillis(hold.hostKey));
                } catch (RuntimeException e) {
                    trouble.accept("giving back " + hold.hostKey, e); // it expires by itself
                }
            }
        }
        holds.clear();
    }
}
