package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Fills in the politeness keys (registered domain, address) of the cluster's hosts that have work, while a
 * cluster job limits by one of them: a host is not taken by any node before its key is known (see
 * {@link dev.loomcrawl.crawler.cluster.ClusterLeases#acquire}). The lookups run on a virtual thread of their own, never on the heartbeat,
 * whose lease renewals must not wait on DNS; one round at a time, started by the heartbeat.
 *
 * <p>An address is the one the name had when it was first looked up: a host that moves to another address
 * mid-crawl keeps its first key.
 */
final class HostKeys {
    private static final int BATCH = 500;

    private final ClusterStore db;
    private final HostGates gates;
    private final BiConsumer<String, RuntimeException> trouble;
    private final AtomicBoolean filling = new AtomicBoolean();

    HostKeys(ClusterStore db, HostGates gates, BiConsumer<String, RuntimeException> trouble) {
        this.db = db;
        this.gates = gates;
        this.trouble = trouble;
    }

    /** Starts a round of lookups if {@code kinds} needs keys and none is under way. */
    void fill(Set<PolitenessKey> kinds) {
        boolean ip = kinds.contains(PolitenessKey.IP);
        if (!ip && !kinds.contains(PolitenessKey.DOMAIN) || !filling.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("cluster-host-keys").start(() -> {
            try {
                Map<String, String[]> keys = new HashMap<>();
                for (String hostKey : db.leases().hostsWithoutKeys(ip, BATCH)) {
                    String host = hostKey.substring(0, hostKey.lastIndexOf(':'));
                    Target target = new Target(hostKey, host);
                    keys.put(hostKey, new String[] {target.domain(), ip ? gates.key(target, PolitenessKey.IP) : null});
                }
                if (!keys.isEmpty()) {
                    db.leases().setHostKeys(keys);
                }
            } catch (RuntimeException e) {
                trouble.accept("looking up hosts' politeness keys", e); // tried again at the next heartbeat
            } finally {
                filling.set(false);
            }
        });
    }
}
