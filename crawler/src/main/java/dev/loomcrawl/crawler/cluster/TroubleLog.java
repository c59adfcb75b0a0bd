package dev.loomcrawl.crawler.cluster;

import java.util.concurrent.TimeUnit;

/**
 * What went wrong on a node's background threads (heartbeat, loads, commits), logged at most once a minute: a
 * database outage must not flood the log. Each thread carries on and tries again at its next turn.
 */
final class TroubleLog {
    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    private static final long EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String nodeId;
    private volatile long lastNanos;

    TroubleLog(String nodeId) {
        this.nodeId = nodeId;
    }

    /** Says what this node did about another node's trouble: rare, so each time. */
    void did(String what) {
        LOG.log(System.Logger.Level.INFO, "cluster node " + nodeId + ": " + what);
    }

    void say(String what, RuntimeException e) {
        long now = System.nanoTime();
        if (lastNanos == 0 || now - lastNanos > EVERY_NANOS) {
            lastNanos = now;
            LOG.log(System.Logger.Level.WARNING, "cluster node " + nodeId + ": " + what + " failed: " + e.getMessage());
        }
    }
}
