package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.NodeSettings;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ClusterNode} gives the parts that run its shares, and nothing more of itself.
 *
 * @param perHost the process's per-host limit
 */
record NodeMembership(NodeSettings settings, ClusterStore db, HostHolds holds, int perHost, TroubleLog troubles)
        implements Membership {

    @Override
    public String nodeId() {
        return settings.nodeId();
    }

    @Override
    public @Nullable HostHold hold(String hostKey) {
        HostHold hold = holds.get(hostKey);
        return hold == null || hold.gone ? null : hold;
    }

    @Override
    public Set<String> holdKeys() {
        return holds.keys();
    }

    /** Twice the process's per-host limit. */
    @Override
    public int leasesPerHold() {
        // Requests are bounded by the host's permits; a lease whose result waits for its batch to commit
        // (ClusterCommits) holds no permit but still counts here, so twice that: fetching and storing.
        return 2 * perHost;
    }

    /** Its fetch deadline and a second. */
    @Override
    public long marginNanos(CrawlConfig config) {
        return config.fetch().fetchDeadline().plus(NodeSettings.SAFETY).toNanos();
    }

    @Override
    public void trouble(String what, RuntimeException e) {
        troubles.say(what, e);
    }
}
