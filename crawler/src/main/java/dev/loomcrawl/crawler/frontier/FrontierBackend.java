package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a job's URLs are kept and its results stored: the part of the {@link Frontier} that differs between
 * one process ({@link MemoryBackend}: every URL in memory, results in H2) and a cluster ({@link
 * ClusterBackend}: URLs and results in PostgreSQL, this node holding some hosts). The frontier schedules
 * hosts and runs leases; the backend fills its {@link HostQueues}, admits links and stores rows.
 *
 * <p>Methods said to run under the lock run under the {@link HostQueues}' lock; the others run without it
 * and take it themselves when they change the queues.
 */
public interface FrontierBackend {

    /** Starts the job: admits its seeds, or starts loading this node's share of a job the cluster has. */
    void start(List<CrawlUrl> seeds) throws InterruptedException;

    /** Whether {@code url}, exactly as written, is one the job has: a hint to skip normalising it. */
    boolean knows(String url);

    /** Whether the job admits no new URL now (its page limit is reached): a hint to skip a page's new links. */
    default boolean full() {
        return false;
    }

    /** Whether every URL of the job is in the queues: then the crawl is over once none is queued or out. */
    boolean allHere();

    /** Whether {@code host} may hand out a URL now (a cluster node: it still holds the host). Under the lock. */
    boolean serves(HostQueue host, long now);

    /**
     * A claim on {@code host} for one lease, or null when none can be had yet (the frontier looks again
     * shortly). {@code request}: the lease will make a request, not only record a skip. Under the lock.
     */
    @Nullable Claim claim(HostQueue host, long now, boolean request);

    /** A URL of {@code host} was handed out. Under the lock. */
    default void handedOut(HostQueue host) {}

    /** The host's robots.txt as a lease fetched it; the frontier has applied it already. */
    default void robotsFetched(String hostKey, Robots.Rules rules) {}

    /**
     * Stores {@code page} (its depth as the job has it now) and admits what it links to; the frontier marks
     * the node done, or queues it for its next visit, when this returns.
     *
     * @param visited the visit's event and the URL's schedule ({@link Revisits}): a revisit rewrites the URL's
     *     row, or only its schedule, instead of adding one
     * @return every row stored: links recorded on sight, then the page (a first visit's); empty if nothing was stored
     */
    List<PageRecord> complete(Node node, PageRecord page, List<Lease.Found> found, Revisits.Visited visited)
            throws InterruptedException;

    /**
     * Whether a stored URL due again waits in this process's queues until then (one process), or goes back to the
     * store, which hands it out again when due (a cluster node: by then its host may be another node's).
     */
    default boolean keepsRevisits() {
        return true;
    }

    /** URLs a sitemap read under the lease of {@code lease} lists, admitted at depth 1. @return rows recorded on sight */
    List<PageRecord> listed(Node lease, List<Lease.Found> found, String sitemap) throws InterruptedException;

    /** {@code node} was tried {@code attempts} times so far and waits to be tried again. */
    default void retried(Node node, int attempts) throws InterruptedException {}

    /** {@code node}'s lease ended and it is not queued here any more (stored, or its host dropped). Under the lock. */
    default void forget(Node node) {}

    /** The frontier hands out nothing more (a drain, or a cancel when {@code cancel}). */
    default void stop(boolean cancel) {}

    /** A lease's claim on its host beyond the process's politeness permit: a cluster node's hold. */
    interface Claim {
        /** One process needs none. */
        Claim NONE = new Claim() {
            @Override
            public boolean mayStart() {
                return true;
            }

            @Override
            public void release() {}
        };

        /** Whether a request may start under the claim now. */
        boolean mayStart();

        /** Ends the claim; once per lease. */
        void release();
    }
}
