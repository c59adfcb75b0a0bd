package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.FrontierBackend;
import dev.loomcrawl.crawler.frontier.HostQueue;
import dev.loomcrawl.crawler.frontier.HostQueues;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.frontier.Node;
import dev.loomcrawl.crawler.frontier.Revisits;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cluster job's URLs and results, in PostgreSQL ({@link ClusterStore}): this node's frontier hands out
 * URLs only of hosts it holds a lease on ({@link HostHold}), loaded from the database a few hundred
 * at a time, and each URL's result is stored, its links admitted and the URL marked done in one transaction
 * that checks the hold is still this node's.
 *
 * <p>Within the node a held host works exactly as in one process, the same {@link Frontier}: the job's
 * per-host limit, robots.txt and backoff, the process's {@link HostGates}. Since a host is held by one node
 * at a time, the node's gate bounds the whole cluster.
 *
 * <p>A continuous job's stored URL goes back to the database, queued with the time it is due and its schedule, and
 * is loaded again when due by whichever node then holds its host ({@link ShareHosts}); its change event is stored in
 * the transaction that stores the visit, so a node killed at any moment loses no event and doubles none.
 *
 * <p>Depth is the shortest path, as in one process: links past the depth limit are kept in the database as
 * {@code beyond}, and a shorter path found later lowers a URL's depth there, queues a beyond one, and
 * passes the lower depth on from a stored page to its links ({@link ClusterStore#commit}).
 */
final class ClusterBackend implements FrontierBackend {
    private final long jobId;
    private final CrawlConfig config;
    private final Membership node;
    private final ClusterStore db;
    private final ShareHosts held;
    private final long marginNanos;
    private final int perHold;
    private @Nullable Frontier frontier; // made with the backend, in of

    private ClusterBackend(long jobId, CrawlConfig config, Membership node, HostQueues queues) {
        this.jobId = jobId;
        this.config = config;
        this.node = node;
        this.db = node.db();
        this.held = new ShareHosts(jobId, config, node, queues);
        this.marginNanos = node.marginNanos(config);
        this.perHold = node.leasesPerHold();
    }

    /** This node's share of a cluster job: {@link #frontier()} hands out its URLs. */
    static ClusterBackend of(long jobId, CrawlConfig config, HostGates gates, Membership node) {
        HostQueues queues = new HostQueues(config);
        ClusterBackend backend = new ClusterBackend(jobId, config, node, queues);
        backend.frontier = new Frontier(config, gates, queues, backend, Revisits.of(config));
        return backend;
    }

    Frontier frontier() {
        return Objects.requireNonNull(frontier, "made in of");
    }

    /** The seeds were admitted with the job ({@link ClusterNode#create}); this starts loading URLs. */
    @Override
    public void start(List<CrawlUrl> seeds) {
        held.start();
    }

    @Override
    public boolean knows(String url) {
        return false; // the database knows; a link is admitted there at most once
    }

    @Override
    public boolean allHere() {
        return false; // other nodes find URLs too; the node says when the job is over (Frontier.finish)
    }

    /** A host this node now holds: load its URLs. */
    void held(String hostKey) {
        held.want(hostKey);
    }

    // ---- handing out

    @Override
    public boolean serves(HostQueue host, long now) {
        return held.serves(host);
    }

    /**
     * The host's hold, for one lease more: a request only with a whole fetch's time left on it (after the
     * renewal, then), and not while leases of the host are still storing beyond the hold's share.
     */
    @Override
    public @Nullable Claim claim(HostQueue host, long now, boolean request) {
        HostHold hold = node.hold(host.hostKey);
        if (hold == null || !hold.tryStart(now, request ? marginNanos : 0, perHold)) {
            return null;
        }
        return new Claim() {
            @Override
            public boolean mayStart() {
                return hold.fresh(System.nanoTime(), marginNanos);
            }

            @Override
            public void release() {
                hold.end();
            }
        };
    }

    /**
     * Links this node finds join its queues at once; the database is asked only for a backlog it holds
     * beyond what was loaded, or (once a queue is empty, now and then) for links other nodes found.
     */
    @Override
    public void handedOut(HostQueue host) {
        held.handedOut(host);
    }

    @Override
    public void retried(Node url, int attempts) {
        db.retried(jobId, url.url.url(), attempts); // the next node to hold the host counts on from here
    }

    @Override
    public void forget(Node url) {
        held.forget(url);
    }

    @Override
    public void stop(boolean cancel) {
        held.stop(cancel);
    }

    // ---- results

    @Override
    public void robotsFetched(String hostKey, Robots.Rules rules) {
        Robots.Text text = rules.text();
        try {
            db.leases().saveRobots(hostKey, text == null ? new ClusterLeases.RobotsRow(null, null, null)
                    : new ClusterLeases.RobotsRow(text.url(), text.body(), text.contentType()));
        } catch (RuntimeException e) {
            node.trouble("keeping robots.txt of " + hostKey, e); // the next owner asks again
        }
    }

    @Override
    public List<PageRecord> listed(Node lease, List<Lease.Found> links, String sitemap) {
        long epoch = held.epochOf(lease);
        ClusterStore.Committed committed = epoch < 0 ? null : db.commit(node.nodeId(), lease.queue().hostKey, epoch,
                jobId, null, null, links(links, 0, sitemap), List.of(), config.scope().maxDepth(), config.scope().maxPages());
        held.addLocked(committed == null ? null : committed.queued());
        return List.of();
    }

    @Override
    public List<PageRecord> complete(Node page, PageRecord row, List<Lease.Found> found, Revisits.Visited visited) {
        List<PageRecord> recorded = new ArrayList<>();
        List<Lease.Found> follow = new ArrayList<>(found.size());
        long epoch = held.epochOf(page);
        for (Lease.Found f : found) {
            switch (f) {
                case Lease.Found.Link link -> {
                    String forbidden = held.forbidden(link);
                    if (forbidden != null && link.parsed() instanceof CrawlUrl url) {
                        recorded.add(onSight(page, url.url(), FailureKind.ROBOTS, forbidden));
                    } else {
                        follow.add(link);
                    }
                }
            }
        }
        PageRecord stored = row.withDepth(page.depth);
        boolean revisit = page.visit() != null;
        ClusterStore.Committed committed = epoch < 0 ? null : db.commit(node.nodeId(), page.queue().hostKey, epoch,
                jobId, stored, visitWrite(revisit, stored, visited), links(follow, page.redirects, page.url.url()),
                recorded, config.scope().maxDepth(), config.scope().maxPages());
        if (committed == null) {
            return List.of(); // the host moved to another node, which fetches the URL again
        }
        held.addLocked(committed.queued());
        // A revisit's row was counted at its first visit (the change feed tells the rest), and a link another
        // page recorded on sight first is stored and counted once.
        return committed.stored();
    }

    /**
     * A URL due again goes back to the database, which hands it out again when due ({@link ShareHosts}): by then
     * its host may be another node's.
     */
    @Override
    public boolean keepsRevisits() {
        return false;
    }

    /** What a continuous job's visit writes besides a first visit's row; null on a one-pass job. */
    private static ClusterStore.@Nullable VisitWrite visitWrite(boolean revisit, PageRecord stored, Revisits.Visited visited) {
        Visit next = visited.next();
        if (next == null && visited.change() == null) {
            return null;
        }
        Long dueIn = next == null || next.nextVisitAt() == null ? null
                : Math.max(0, Duration.between(Instant.now(), next.nextVisitAt()).toMillis());
        return new ClusterStore.VisitWrite(revisit, revisit && visited.rewrite() != null ? stored : null,
                visited.change(), dueIn, next == null ? 0 : next.changes(), next == null ? null : next.watchedSince(),
                next == null ? 0 : next.intervalMillis());
    }

    private PageRecord onSight(Node page, String url, FailureKind kind, String detail) {
        return PageRecord.onSight(jobId, url, page.depth + 1, page.url.url(), kind.label(), detail);
    }

    /**
     * The links to admit, each at its depth relative to this page's (1; a redirect's target 0): the
     * database knows the page's depth as it stands, and keeps those past the limit as beyond.
     */
    private static List<ClusterStore.Link> links(List<Lease.Found> found, int redirects, String referrer) {
        List<ClusterStore.Link> links = new ArrayList<>(found.size());
        for (Lease.Found f : found) {
            if (f instanceof Lease.Found.Link link && link.parsed() != null) {
                links.add(new ClusterStore.Link(link.parsed().url(), link.parsed().hostKey(), link.redirect() ? 0 : 1,
                        link.redirect() ? redirects + 1 : 0, referrer));
            }
        }
        return links;
    }
}
