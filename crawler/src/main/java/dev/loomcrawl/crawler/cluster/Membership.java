package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.NodeSettings;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a node gives the parts that run its shares of cluster jobs ({@link NodeShares}, {@link ClusterBackend},
 * {@link ShareHosts}, {@link HostFeeder}): its name, the shared database, the hosts it holds, and where trouble
 * goes ({@link NodeMembership}): the parts never hold the {@link ClusterNode} itself.
 */
interface Membership {
    String nodeId();

    NodeSettings settings();

    ClusterStore db();

    /** The node's hold on a host, or null when it holds none (or lost it). */
    @Nullable HostHold hold(String hostKey);

    /** Every host key the node holds now. */
    Set<String> holdKeys();

    /** Leases handed out at once under one hold. */
    int leasesPerHold();

    /** How much of a lease must be left for a request of a job to start. */
    long marginNanos(CrawlConfig config);

    /** Says what went wrong in the background, at most once a minute. */
    void trouble(String what, RuntimeException e);
}
