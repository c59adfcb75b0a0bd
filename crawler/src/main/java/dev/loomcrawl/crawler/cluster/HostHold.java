package dev.loomcrawl.crawler.cluster;

/**
 * A host a cluster node holds, at an epoch: its lease in the database, counted down on this node's clock.
 * Leases of the job's frontiers are counted under it, so it is given back only when idle.
 */
final class HostHold {
    final String hostKey;
    final long epoch;
    volatile long validUntil; // System.nanoTime()
    private int active; // leases out under this hold; guarded by this
    volatile boolean giving; // over this node's share: hand out nothing more, give back when idle
    volatile boolean gone; // given back or lost

    HostHold(String hostKey, long epoch, long validUntil) {
        this.hostKey = hostKey;
        this.epoch = epoch;
        this.validUntil = validUntil;
    }

    long epoch() {
        return epoch;
    }

    /** Whether a request may start now: the hold is ours with more than {@code margin} left. */
    boolean fresh(long now, long margin) {
        return !gone && validUntil - now > margin;
    }

    /**
     * Claims the hold for one lease if it is fresh and fewer than {@code limit} are out; {@link #end}
     * returns the claim. A lease is out until its result is stored, so a node that dies has at most
     * {@code limit} URLs of the host fetched and not stored: all that another node fetches again.
     */
    synchronized boolean tryStart(long now, long margin, int limit) {
        if (giving || active >= limit || !fresh(now, margin)) {
            return false;
        }
        active++;
        return true;
    }

    synchronized void end() {
        active--;
    }

    /** Marks the hold gone if no lease is out under it; true if so (the caller then gives it back). */
    synchronized boolean goneIfIdle() {
        if (active > 0) {
            return false;
        }
        gone = true;
        return true;
    }

    synchronized void lost() {
        gone = true;
    }
}
