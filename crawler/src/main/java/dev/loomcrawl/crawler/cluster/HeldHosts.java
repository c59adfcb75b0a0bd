package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlUrl;
import dev.loomcrawl.crawler.frontier.HostQueue;
import dev.loomcrawl.crawler.frontier.HostQueue.Node;
import dev.loomcrawl.crawler.frontier.HostQueues;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.store.ClusterLeases;
import dev.loomcrawl.crawler.store.ClusterStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One cluster job's URLs on this node: a queue for each host the node holds, loaded from the database a few
 * hundred URLs at a time by a feeder thread (and, on a continuous job, its stored URLs as they come due), and
 * dropped when the hold ends or changes its epoch. Its state is
 * guarded by the job's frontier lock ({@link HostQueues#lock}).
 */
final class HeldHosts {
    /** URLs of one host loaded at a time. */
    private static final int BATCH = 500;
    /** Links of a held host found here join its local queue while it is shorter than this; the rest wait in the database. */
    private static final int LOCAL_CAP = 2_000;
    /** How often a held host with nothing loaded asks the database again (other nodes may have found URLs of it). */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A continuous job's stored URLs due this soon are loaded (every {@link #RECHECK_NANOS}), to wait here until due. */
    private static final long DUE_AHEAD_MILLIS = 2_000;
    /** Stored URLs of one host loaded as due at a time. */
    private static final int DUE_PER_HOST = 50;

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
    private final String agentToken;
    private final HashMap<String, Local> hosts = new HashMap<>();
    /** When each held host's URLs were last asked for. */
    private final HashMap<String, Long> asked = new HashMap<>();
    private final LinkedBlockingQueue<String> wanted = new LinkedBlockingQueue<>();
    /** Whether the job revisits its stored URLs (it is continuous): they come back from the database when due. */
    private final boolean revisits;
    private long dueLoadedAt;
    private boolean stopped;
    private Thread feeder;

    HeldHosts(long jobId, CrawlConfig config, ClusterNode node, HostQueues queues) {
        this.jobId = jobId;
        this.config = config;
        this.node = node;
        this.db = node.db();
        this.queues = queues;
        this.lock = queues.lock();
        this.agentToken = Robots.productToken(config.fetch().userAgent());
        this.revisits = config.freshness().continuous();
    }

    /** Starts loading the URLs of the hosts the node holds. */
    void start() {
        feeder = Thread.ofVirtual().name("cluster-feed-" + jobId).start(this::feed);
        node.holdKeys().forEach(wanted::add);
    }

    /** A host this node now holds, or one whose queue ran short: load its URLs. */
    void want(String hostKey) {
        wanted.add(hostKey);
    }

    /** Loads URLs of hosts that ran short, and looks again now and then at held hosts with nothing loaded. */
    private void feed() {
        try {
            while (!stopped()) {
                String hostKey = wanted.poll(RECHECK_NANOS, TimeUnit.NANOSECONDS);
                try {
                    long now = System.nanoTime();
                    if (revisits && now - dueLoadedAt >= RECHECK_NANOS) {
                        dueLoadedAt = now;
                        loadDue();
                    }
                    if (hostKey != null) {
                        load(hostKey);
                        continue;
                    }
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
        ClusterLeases.RobotsRow robots = robotsKnown ? null : db.leases().robots(hostKey);
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

    /** Loads the stored URLs of held hosts due soon: each waits in its host's queue until it is due. */
    private void loadDue() {
        Set<String> held = node.holdKeys();
        if (held.isEmpty()) {
            return;
        }
        List<ClusterStore.Due> due = db.due(jobId, held, DUE_AHEAD_MILLIS, DUE_PER_HOST);
        Instant now = Instant.now();
        lock.lock();
        try {
            if (queues.cancelled() || stopped) {
                return;
            }
            for (ClusterStore.Due d : due) {
                ClusterStore.Link link = d.link();
                HostHold hold = node.hold(link.hostKey());
                CrawlUrl url = hold == null ? null : CrawlUrl.parse(link.url()).orElse(null);
                if (url == null) {
                    continue;
                }
                Local local = local(url, hold);
                if (!local.urls.add(url.url())) {
                    continue; // loaded already: waiting here, or in flight
                }
                Visit visit = new Visit(d.etag(), d.lastModified(), d.digest(), d.simhash(), d.changes(),
                        d.watchedSince(), d.intervalMillis(), now.plusMillis(d.dueInMillis()));
                queues.enqueueDue(new Node(local.queue.shared(url), local.queue, link.depth(), link.redirects(),
                        link.referrer()), visit);
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

    /**
     * Whether the host's queue here is of the node's current hold and ready to hand out: a queue of a hold
     * lost (or renewed under a new epoch) is dropped and loaded afresh, and one whose robots.txt was not looked
     * up yet waits for its load. Under the lock.
     */
    boolean serves(HostQueue host) {
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
     * Links this node finds join its queues at once; the database is asked only for a backlog it holds
     * beyond what was loaded, or (once a queue is empty, now and then) for links other nodes found.
     */
    void handedOut(HostQueue host) {
        Local local = hosts.get(host.hostKey);
        if (local != null && local.more && host.size() == config.politeness().perHostConcurrency()) {
            wanted.add(host.hostKey);
        }
    }

    void forget(Node url) {
        Local local = hosts.get(url.host.hostKey);
        if (local != null && local.queue == url.host) {
            local.urls.remove(url.url.url());
        }
    }

    /** Loads nothing more; a cancelled job's queues are dropped. */
    void stop(boolean cancel) {
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

    /** The epoch of the hold {@code url} was loaded under, or -1 if its host was dropped since. */
    long epochOf(Node url) {
        lock.lock();
        try {
            return hosts.get(url.host.hostKey) instanceof Local local && local.queue == url.host ? local.epoch : -1;
        } finally {
            lock.unlock();
        }
    }

    /** URLs the database admitted: into the local queues of held hosts. */
    void addLocked(List<ClusterStore.Link> admitted) {
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
     * Why robots.txt forbids a link, when the node knows its host's robots.txt and it does: the link is recorded
     * on sight, as in one process, so it takes nothing from the page limit. Null when it may be followed.
     */
    String forbidden(Lease.Found.Link link) {
        if (link.parsed() == null) {
            return null;
        }
        lock.lock();
        try {
            Local local = hosts.get(link.parsed().hostKey());
            boolean forbids = local != null && local.queue.robotsKnown() && !local.queue.rules().allows(link.parsed());
            return forbids ? local.queue.rules().reason() : null;
        } finally {
            lock.unlock();
        }
    }
}
