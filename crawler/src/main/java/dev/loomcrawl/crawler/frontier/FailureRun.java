package dev.loomcrawl.crawler.frontier;

/**
 * A host's run of failing URLs in a row, as one job counts it: the run rests the host with backoff when long
 * and gives it up when longer ({@link HostQueue#exchangeOver}). A URL counts once in a job: its retry failing
 * again says nothing new of the host, and a healthy site's few broken pages, retried after its last good page,
 * would otherwise make a run long enough to rest it for half a minute between their retries. A server down for a
 * moment answers every request in flight at once, and each of those counted would give the host up within a tenth
 * of a second: so a failure of a request that left before the run's last counted failure came back
 * {@link #repeats} it, and is not counted. Guarded by the frontier's lock, as its {@link HostQueue}.
 */
final class FailureRun {
    private int length;
    private long lastCounted; // when the run's last counted failure came back
    private long lastGoodAnswer = System.nanoTime(); // when the last answer that was no trouble came back

    /** An answer that was no trouble, at {@code now}: the run is over. */
    void goodAnswer(long now) {
        length = 0;
        lastGoodAnswer = now;
    }

    /**
     * Counts the failure of {@code node}'s request handed out at {@code leasedNanos}, back at {@code now}; returns
     * the run's length, or 0 when it does not count: it {@link #repeats} the run, or the URL has counted before.
     */
    int count(Node node, long leasedNanos, long now) {
        if (node.failureCounted || repeats(leasedNanos)) {
            return 0;
        }
        node.failureCounted = true;
        lastCounted = now;
        return ++length;
    }

    /** Whether a failure of a request handed out at {@code leasedNanos} repeats one of the run, back since it left. */
    boolean repeats(long leasedNanos) {
        return length > 0 && lastCounted - leasedNanos > 0;
    }

    /**
     * Whether a failure of a request handed out at {@code leasedNanos} costs its URL no retry: it {@link #repeats}
     * the run, and no good answer came back while it was out (a few broken pages among good ones pay their own).
     */
    boolean spares(long leasedNanos) {
        return repeats(leasedNanos) && lastGoodAnswer - leasedNanos < 0;
    }
}
