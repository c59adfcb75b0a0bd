package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlUrl;
import dev.loomcrawl.crawler.FailureKind;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.FrontierBackend;
import dev.loomcrawl.crawler.frontier.HostQueue;
import dev.loomcrawl.crawler.frontier.HostQueue.Node;
import dev.loomcrawl.crawler.frontier.HostQueues;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.store.ClusterStore;
import dev.loomcrawl.crawler.store.PageRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

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
 * <p>Depth is the shortest path, as in one process: links past the depth limit are kept in the database as
 * {@code beyond}, and a shorter path found later lowers a URL's depth there, queues a beyond one, and
 * passes the lower depth on from a stored page to its links ({@link ClusterStore#commit}).
 */
final class ClusterBackend implements FrontierBackend {
    /** URLs of one host loaded at a time. */
    private static final int BATCH = 500;
    /** Links of a held host found here join its local queue while it is shorter than this; the rest wait in the database. */
    private static final int LOCAL_CAP = 2_000;
    /** How often a held host with nothing loaded asks the database again (other nodes may have found URLs of it). */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** One held host's share of this job on this node: its queue as long as the hold's epoch lasts. */
    private static final class Local {
        final HostQueue queue;
        final long epoch;
        final Set<String> urls = new HashSet<>(); // loaded here: queued or in flight
        /** The last load filled a whole batch: the database has more of this host's URLs than are here. */
        boolean more;
        /** Whether the database was asked for the host's robots.txt (nothing is handed out before). */
        boolean robotsLooked;

        Local(HostQueue queue, long epoch) {
            this.queue = queue;
            this.epoch = epoch;
        }
    }

    private final long jobId;
    private final CrawlConfig config;
    private final ClusterNode node;
    private final ClusterStore db;
    private final HostQueues queues;
    private final ReentrantLock lock;
    private final long marginNanos;
    private final int perHold;
    private final String agentToken;
    private final HashMap<String, Local> hosts = new HashMap<>();
    /** When each held host's URLs were last asked for. */
    private final HashMap<String, Long> asked = new HashMap<>();
    private final LinkedBlockingQueue<String> wanted = new LinkedBlockingQueue<>();
    private boolean stopped;
    private Thread feeder;
    private Frontier frontier;

    private ClusterBackend(long jobId, CrawlConfig config, ClusterNode node, HostQueues queues) {
        this.jobId = jobId;
        this.config = config;
        this.node = node;
        this.db = node.db();
        this.queues = queues;
        this.lock = queues.lock();
        this.marginNanos = node.marginNanos(config);
        this.perHold = node.leasesPerHold();
        this.agentToken = Robots.productToken(config.fetch().userAgent());
    }

    /** This node's share of a cluster job: {@link #frontier()} hands out its URLs. */
    static ClusterBackend of(long jobId, CrawlConfig config, HostGates gates, ClusterNode node) {
        HostQueues queues = new HostQueues(config);
        ClusterBackend backend = new ClusterBackend(jobId, config, node, queues);
        backend.frontier = new Frontier(config, gates, queues, backend);
        return backend;
    }

    Frontier frontier() {
        return frontier;
    }

    /** The seeds were admitted with the job ({@link ClusterNode#create}); this starts loading URLs. */
    @Override
    public void start(List<CrawlUrl> seeds) {
        feeder = Thread.ofVirtual().name("cluster-feed-" + jobId).start(this::feed);
        node.holdKeys().forEach(wanted::add);
    }

    @Override
    public boolean knows(String url) {
        return false; // the database knows; a link is admitted there at most once
    }

    @Override
    public boolean allHere() {
        return false; // other nodes find URLs too; the node says when the job is over (Frontier.finish)
    }

    // ---- loading URLs of held hosts

    /** A host this node now holds: load its URLs. */
    void held(String hostKey) {
        wanted.add(hostKey);
    }

    /** Loads URLs of hosts that ran short, and looks again now and then at held hosts with nothing loaded. */
    private void feed() {
        try {
            while (!stopped()) {
                String hostKey = wanted.poll(RECHECK_NANOS, TimeUnit.NANOSECONDS);
                try {
                    if (hostKey != null) {
                        load(hostKey);
                        continue;
                    }
                    long now = System.nanoTime();
                    for (String key : node.holdKeys()) {
                        if (shortOf(key, now)) {
                            load(key);
                        }
                    }
                } catch (RuntimeException e) {
                    // The database is away: say so (at most once a minute), keep the host wanted, try again shortly.
                    node.trouble("loading URLs of job " + jobId, e);
                    if (hostKey != null) {
                        wanted.add(hostKey);
                    }
                    Thread.sleep(RECHECK_NANOS / 1_000_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the job is over
        }
    }

    private boolean stopped() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a held host has nothing waiting here and was not asked for a while. */
    private boolean shortOf(String hostKey, long now) {
        lock.lock();
        try {
            Local local = hosts.get(hostKey);
            Long at = asked.get(hostKey);
            return (local == null || local.queue.size() == 0) && (at == null || now - at > RECHECK_NANOS);
        } finally {
            lock.unlock();
        }
    }

    private void load(String hostKey) {
        HostHold hold = node.hold(hostKey);
        if (hold == null) {
            return;
        }
        List<String> except;
        boolean robotsKnown;
        lock.lock();
        try {
            Local local = hosts.get(hostKey);
            boolean current = local != null && local.epoch == hold.epoch();
            except = current ? List.copyOf(local.urls) : List.of();
            robotsKnown = !config.politeness().respectRobots() || current && local.queue.robotsKnown();
            asked.put(hostKey, System.nanoTime());
        } finally {
            lock.unlock();
        }
        // robots.txt first, once per hold: the URLs join the queue with it, so none is handed out to fetch it again.
        ClusterStore.RobotsRow robots = robotsKnown ? null : db.robots(hostKey);
        List<ClusterStore.Link> rows = db.queued(jobId, hostKey, except, BATCH);
        lock.lock();
        try {
            add(rows);
            Local local = hosts.get(hostKey);
            if (local != null) {
                local.more = rows.size() == BATCH;
                if (robots != null && !local.queue.robotsKnown()) {
                    local.queue.robotsKnown(Robots.of(robots.url() == null ? null
                            : new Robots.Text(robots.url(), robots.body(), robots.contentType()), agentToken));
                }
                local.robotsLooked = true;
                queues.ready(local.queue);
            }
        } finally {
            lock.unlock();
        }
    }

    /** This job's share of a held host, made afresh when the hold is new. Under the lock. */
    private Local local(CrawlUrl url, HostHold hold) {
        Local local = hosts.get(url.hostKey());
        if (local != null && local.epoch == hold.epoch()) {
            return local;
        }
        local = new Local(queues.fresh(url), hold.epoch()); // the queue of an older hold is dropped
        local.robotsLooked = !config.politeness().respectRobots();
        hosts.put(url.hostKey(), local);
        return local;
    }

    /** URLs into the local queues of hosts this node holds; others stay in the database. Under the lock. */
    private void add(List<ClusterStore.Link> links) {
        if (queues.cancelled() || stopped) {
            return;
        }
        for (ClusterStore.Link link : links) {
            HostHold hold = node.hold(link.hostKey());
            CrawlUrl url = hold == null ? null : CrawlUrl.parse(link.url()).orElse(null);
            if (url == null) {
                continue;
            }
            Local local = local(url, hold);
            if (local.urls.size() >= LOCAL_CAP || !local.urls.add(url.url())) {
                continue;
            }
            queues.enqueue(new Node(local.queue.shared(url), local.queue, link.depth(), link.redirects(), link.referrer()));
        }
    }

    /** A host no longer held (or held anew): what was loaded here stays queued in the database. Under the lock. */
    private void drop(Local local) {
        queues.drop(local.queue);
        hosts.remove(local.queue.hostKey, local);
    }

    // ---- handing out

    @Override
    public boolean serves(HostQueue host, long now) {
        Local local = hosts.get(host.hostKey);
        HostHold hold = node.hold(host.hostKey);
        if (local == null) {
            return false;
        }
        if (hold == null || hold.epoch() != local.epoch) {
            drop(local); // lost to another node, or held again under a new epoch: load afresh
            if (hold != null) {
                wanted.add(host.hostKey);
            }
            return false;
        }
        if (!local.robotsLooked) {
            wanted.add(host.hostKey); // its load asks for robots.txt too, then makes the host ready again
            return false;
        }
        return true;
    }

    /**
     * The host's hold, for one lease more: a request only with a whole fetch's time left on it (after the
     * renewal, then), and not while leases of the host are still storing beyond the hold's share.
     */
    @Override
    public Claim claim(HostQueue host, long now, boolean request) {
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
        Local local = hosts.get(host.hostKey);
        if (local != null && local.more && host.size() == config.politeness().perHostConcurrency()) {
            wanted.add(host.hostKey);
        }
    }

    @Override
    public void forget(Node url) {
        Local local = hosts.get(url.host.hostKey);
        if (local != null && local.queue == url.host) {
            local.urls.remove(url.url.url());
        }
    }

    @Override
    public void stop(boolean cancel) {
        lock.lock();
        try {
            stopped = true;
            if (cancel) {
                List.copyOf(hosts.values()).forEach(this::drop);
            }
        } finally {
            lock.unlock();
        }
        Thread f = feeder;
        if (f != null) {
            f.interrupt();
        }
    }

    // ---- results

    @Override
    public void robotsFetched(String hostKey, Robots.Rules rules) {
        Robots.Text text = rules.text();
        try {
            db.saveRobots(hostKey, text == null ? new ClusterStore.RobotsRow(null, null, null)
                    : new ClusterStore.RobotsRow(text.url(), text.body(), text.contentType()));
        } catch (RuntimeException e) {
            node.trouble("keeping robots.txt of " + hostKey, e); // the next owner asks again
        }
    }

    @Override
    public List<PageRecord> listed(Node lease, List<Lease.Found> links, String sitemap) {
        long epoch = epochOf(lease);
        List<ClusterStore.Link> admitted = epoch < 0 ? null : db.commit(node.nodeId(), lease.host.hostKey, epoch, jobId,
                null, links(links, 0, sitemap), List.of(), config.scope().maxDepth(), config.scope().maxPages());
        addLocked(admitted);
        return List.of();
    }

    /** The epoch of the hold {@code url} was loaded under, or -1 if its host was dropped since. */
    private long epochOf(Node url) {
        lock.lock();
        try {
            return hosts.get(url.host.hostKey) instanceof Local local && local.queue == url.host ? local.epoch : -1;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<PageRecord> complete(Node page, PageRecord row, List<Lease.Found> found) {
        List<PageRecord> recorded = new ArrayList<>();
        List<Lease.Found> follow = new ArrayList<>(found.size());
        long epoch = epochOf(page);
        lock.lock();
        try {
            for (Lease.Found f : found) {
                switch (f) {
                    case Lease.Found.Invalid invalid -> recorded.add(onSight(page, invalid.url(), FailureKind.INVALID_URL,
                            invalid.reason()));
                    case Lease.Found.Link link when forbidden(link) -> recorded.add(onSight(page, link.parsed().url(),
                            FailureKind.ROBOTS, hosts.get(link.parsed().hostKey()).queue.rules().reason()));
                    case Lease.Found.Link link -> follow.add(link);
                }
            }
        } finally {
            lock.unlock();
        }
        PageRecord stored = row.withDepth(page.depth);
        List<ClusterStore.Link> admitted = epoch < 0 ? null : db.commit(node.nodeId(), page.host.hostKey, epoch, jobId,
                stored, links(follow, page.redirects, page.url.url()), recorded, config.scope().maxDepth(),
                config.scope().maxPages());
        if (admitted == null) {
            return List.of(); // the host moved to another node, which fetches the URL again
        }
        addLocked(admitted);
        recorded.add(stored);
        return recorded;
    }

    private void addLocked(List<ClusterStore.Link> admitted) {
        if (admitted == null) {
            return;
        }
        lock.lock();
        try {
            add(admitted);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A link to a host whose robots.txt this node knows, which forbids it: recorded on sight, as in one
     * process, so it takes nothing from the page limit. Under the lock.
     */
    private boolean forbidden(Lease.Found.Link link) {
        if (link.parsed() == null) {
            return false;
        }
        Local local = hosts.get(link.parsed().hostKey());
        return local != null && local.queue.robotsKnown() && !local.queue.rules().allows(link.parsed());
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
