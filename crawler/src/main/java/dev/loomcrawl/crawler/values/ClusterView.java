package dev.loomcrawl.crawler.values;

import java.time.Instant;
import java.util.List;

/** The cluster as {@code GET /cluster} shows it. */
public record ClusterView(String self, double leaseTtlSeconds, List<ClusterView.NodeView> nodes,
        List<ClusterView.LeaseRow> leases) {

    /** A node of the cluster: live while its heartbeat is younger than a lease. */
    public record NodeView(String nodeId, String address, Instant startedAt, Instant lastHeartbeat,
            double heartbeatAgeSeconds, boolean live, long pages, int fetching, int hosts) {}

    /** A host lease as the database sees it. */
    public record LeaseRow(String hostKey, String owner, long epoch, double expiresInSeconds) {}
}
