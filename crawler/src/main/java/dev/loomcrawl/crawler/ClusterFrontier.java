package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.HostQueue.Node;
import dev.loomcrawl.crawler.HostQueue.State;
import dev.loomcrawl.crawler.store.ClusterStore;
import dev.loomcrawl.crawler.store.PageRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node's view of a cluster job's frontier, which lives in PostgreSQL ({@link ClusterStore}): this node
 * hands out URLs only of hosts it holds a lease on ({@link ClusterNode.Hold}), loaded from the database a
 * few hundred at a time, and each URL's result is stored, its links admitted and the URL marked done in one
 * transaction that checks the lease is still this node's.
 *
 * <p>Within the node a held host works exactly as in {@link MemoryFrontier}: a {@link HostQueue} with the
 * job's per-host limit, robots.txt and backoff, the process's {@link HostGates} for politeness, and turns
 * taken round robin. Since a host is held by one node at a time, the node's gate bounds the whole cluster.
 *
 * <p>Depth is the shortest path, as in one process: links past the depth limit are kept in the database as
 * {@code beyond}, and a shorter path found later lowers a URL's depth there, queues a beyond one, and
 * passes the lower depth on from a stored page to its links ({@link ClusterStore#commit}).
 */
final class ClusterFrontier implements Frontier, HostGates.Listener {
    /** URLs of one host loaded at a time. */
    private static final int BATCH = 500;
    /** Links of a held host found here join its local queue while it is shorter than this; the rest wait in the database. */
    private static final int LOCAL_CAP = 2_000;
    /** How often a held host with nothing loaded asks the database again (other nodes may have found URLs of it). */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The longest the dispatcher sleeps without looking: holds are gained and renewed outside its lock. */
    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** One held host's share of this job on this node. */
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
    private final HostGates gates;
    private final ClusterNode node;
    private final ClusterStore db;
    private final long marginNanos;
    private final int perHold;
    private final String agentToken;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final HostTurns turns = new HostTurns(changed);
    private final HashMap<String, Local> hosts = new HashMap<>();
    /** When each held host's URLs were last asked for. */
    private final HashMap<String, Long> asked = new HashMap<>();
    private final LinkedBlockingQueue<String> wanted = new LinkedBlockingQueue<>();
    private final Map<String, String> givenUp = new LinkedHashMap<>();
    private int queued;
    private int inFlight;
    private boolean draining;
    private boolean cancelled;
    private boolean ended;
    private Thread feeder;

    ClusterFrontier(long jobId, CrawlConfig config, HostGates gates, ClusterNode node) {
        this.jobId = jobId;
        this.config = config;
        this.gates = gates;
        this.node = node;
        this.db = node.db();
        this.marginNanos = node.marginNanos(config);
        this.perHold = node.leasesPerHold();
        this.agentToken = Robots.productToken(config.userAgent());
    }

    /** The seeds were admitted with the job ({@link ClusterNode#create}); this starts loading URLs. */
    @Override
    public void seed(List<CrawlUrl> seeds) {
        feeder = Thread.ofVirtual().name("cluster-feed-" + jobId).start(this::feed);
        node.holdKeys().forEach(wanted::add);
    }

    @Override
    public boolean knows(String url) {
        return false; // the database knows; a link is admitted there at most once
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
            return ended || cancelled || draining;
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
        ClusterNode.Hold hold = node.hold(hostKey);
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
            robotsKnown = !config.respectRobots() || current && local.queue.robotsKnown();
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
                turns.ready(local.queue);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * This job's share of a held host, made afresh when the hold is new (one of an older hold is dropped
     * first). Under the lock.
     */
    private Local local(CrawlUrl url, ClusterNode.Hold hold) {
        Local local = hosts.get(url.hostKey());
        if (local != null && local.epoch == hold.epoch()) {
            return local;
        }
        if (local != null) {
            drop(local);
        }
        local = new Local(new HostQueue(url, config.perHostConcurrency(), config.respectRobots() ? null : Robots.ALLOW_ALL),
                hold.epoch());
        local.robotsLooked = !config.respectRobots();
        hosts.put(url.hostKey(), local);
        return local;
    }

    /** URLs into the local queues of hosts this node holds; others stay in the database. Under the lock. */
    private void add(List<ClusterStore.Link> links) {
        if (cancelled || ended) {
            return;
        }
        for (ClusterStore.Link link : links) {
            ClusterNode.Hold hold = node.hold(link.hostKey());
            CrawlUrl url = hold == null ? null : CrawlUrl.parse(link.url()).orElse(null);
            if (url == null) {
                continue;
            }
            Local local = local(url, hold);
            if (local.urls.size() >= LOCAL_CAP || !local.urls.add(url.url())) {
                continue;
            }
            local.queue.add(new Node(local.queue.shared(url), local.queue, link.depth(), link.redirects(), link.referrer()));
            queued++;
            turns.ready(local.queue);
        }
    }

    /** A host no longer held: what was loaded here stays queued in the database for its next owner. */
    private void drop(Local local) {
        queued -= local.queue.size();
        local.queue.clear();
        local.urls.clear();
        hosts.remove(local.queue.hostKey);
    }

    // ---- handing out

    @Override
    public Lease next(FetchLimit.Slot slot) throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (cancelled || draining || ended) {
                    return null;
                }
                long now = System.nanoTime();
                if (inFlight < config.maxInFlight()) {
                    Lease lease = leaseFromReadyHost(now, slot);
                    if (lease != null) {
                        return lease;
                    }
                }
                turns.await(now, WAIT_NANOS);
            }
        } finally {
            lock.unlock();
        }
    }

    private Lease leaseFromReadyHost(long now, FetchLimit.Slot slot) {
        HostQueue host;
        while ((host = turns.next(now)) != null) {
            Local local = hosts.get(host.hostKey);
            ClusterNode.Hold hold = node.hold(host.hostKey);
            if (local == null || local.queue != host) {
                continue; // dropped
            }
            if (hold == null || hold.epoch() != local.epoch) {
                drop(local); // lost to another node, or held again under a new epoch: load afresh
                if (hold != null) {
                    wanted.add(host.hostKey);
                }
                continue;
            }
            if (!local.robotsLooked) {
                wanted.add(host.hostKey); // its load asks for robots.txt too, then makes the host ready again
                continue;
            }
            Node node = host.due(now);
            if (node == null) {
                turns.wakeAt(host, host.wakeTime(now));
                continue;
            }
            Lease.Skip skip = host.skipFor(node);
            if (skip != null) {
                if (!hold.tryStart(now, 0, perHold)) {
                    turns.wakeAt(host, now + WAIT_NANOS);
                    continue;
                }
                host.leaseSkip(node);
                return handOut(local, hold, node, skip, false, slot);
            }
            if (host.busy()) {
                continue; // a lease coming back makes it ready again
            }
            if (host.spacedUntil(now)) {
                turns.wakeAt(host, host.nextStart());
                continue;
            }
            if (!hold.tryStart(now, marginNanos, perHold)) {
                // Too little lease left for a whole fetch (after the renewal, then), or leases of the host are
                // still storing (one of this job's ending makes it ready sooner).
                turns.wakeAt(host, now + WAIT_NANOS);
                continue;
            }
            HostGates.Entry entry = gates.tryEnter(host.hostKey, now, this);
            if (!entry.entered()) {
                hold.end();
                if (entry.resting()) {
                    turns.wakeAt(host, entry.restUntilNanos());
                } else {
                    host.waitingForGate = true; // opened() makes it ready again
                }
                continue;
            }
            boolean robots = !host.robotsKnown();
            host.lease(node, now, config.hostDelay().toNanos());
            return handOut(local, hold, node, null, robots, slot);
        }
        return null;
    }

    private Lease handOut(Local local, ClusterNode.Hold hold, Node node, Lease.Skip skip, boolean robots,
            FetchLimit.Slot slot) {
        queued--;
        inFlight++;
        turns.ready(local.queue);
        // Links this node finds join its queues at once; the database is asked only for a backlog it holds
        // beyond what was loaded, or (once a queue is empty, now and then) for links other nodes found.
        if (local.more && local.queue.size() == config.perHostConcurrency()) {
            wanted.add(local.queue.hostKey);
        }
        return new ClusterLease(local, hold, node, skip, robots, slot);
    }

    @Override
    public void opened(String hostKey) {
        lock.lock();
        try {
            Local local = hosts.get(hostKey);
            if (local != null && local.queue.waitingForGate) {
                local.queue.waitingForGate = false;
                turns.ready(local.queue);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- figures and control

    @Override
    public int queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Map<String, String> givenUpHosts() {
        lock.lock();
        try {
            return Map.copyOf(givenUp);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void drain() {
        stop(false);
    }

    @Override
    public void cancel() {
        stop(true);
    }

    /** The job has ended across the cluster (nothing left to fetch): hand out nothing more. */
    void end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        stopFeeder();
    }

    private void stop(boolean cancel) {
        lock.lock();
        try {
            draining = true;
            if (cancel) {
                cancelled = true;
                List.copyOf(hosts.values()).forEach(this::drop);
                turns.clear();
                queued = 0;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        stopFeeder();
    }

    private void stopFeeder() {
        Thread f = feeder;
        if (f != null) {
            f.interrupt();
        }
    }

    /** A lease's life: under the host's hold, its result committed only while the hold is still this node's. */
    private final class ClusterLease implements Lease {
        private final Local local;
        private final ClusterNode.Hold hold;
        private final Node node;
        private final HostQueue host;
        private final int attempt;
        private final long leasedNanos = System.nanoTime();
        private final FetchLimit.Slot slot;
        private Skip skip;
        private boolean robotsUnknown;
        private boolean permitHeld;
        private boolean ended;

        ClusterLease(Local local, ClusterNode.Hold hold, Node node, Skip skip, boolean robots, FetchLimit.Slot slot) {
            this.local = local;
            this.hold = hold;
            this.node = node;
            this.host = local.queue;
            this.attempt = node.attempts + 1;
            this.skip = skip;
            this.robotsUnknown = robots;
            this.permitHeld = skip == null;
            this.slot = slot;
        }

        @Override public CrawlUrl url() { return node.url; }
        @Override public int depth() { return node.depth; }
        @Override public int attempt() { return attempt; }
        @Override public int redirects() { return node.redirects; }
        @Override public String referrer() { return node.referrer; }
        @Override public long leasedNanos() { return leasedNanos; }
        @Override public Skip skip() { return skip; }
        @Override public boolean robotsUnknown() { return robotsUnknown; }

        /** A request may start only while the hold has more than a whole fetch's time left. */
        @Override
        public boolean mayStart() {
            return hold.fresh(System.nanoTime(), marginNanos);
        }

        @Override
        public void robots(Robots.Rules rules) {
            lock.lock();
            try {
                host.robotsKnown(rules);
                robotsUnknown = false;
                if (!rules.allows(node.url)) {
                    skip = new Skip(FailureKind.ROBOTS, rules.reason());
                }
                turns.ready(host);
            } finally {
                lock.unlock();
            }
            Robots.Text text = rules.text();
            try {
                db.saveRobots(host.hostKey, text == null ? new ClusterStore.RobotsRow(null, null, null)
                        : new ClusterStore.RobotsRow(text.url(), text.body(), text.contentType()));
            } catch (RuntimeException e) {
                ClusterFrontier.this.node.trouble("keeping robots.txt of " + host.hostKey, e); // the next owner asks again
            }
        }

        @Override
        public List<PageRecord> listed(List<Found> links, String sitemap) {
            List<ClusterStore.Link> admitted = db.commit(ClusterFrontier.this.node.nodeId(), host.hostKey, hold.epoch(),
                    jobId, null, links(links, 0, sitemap), List.of(), config.maxDepth(), config.maxPages());
            if (admitted != null) {
                lock.lock();
                try {
                    add(admitted);
                } finally {
                    lock.unlock();
                }
            }
            return List.of();
        }

        @Override
        public void robotsUnreachable(FetchResult.Failed failure) {
            lock.lock();
            try {
                if (ended) {
                    return;
                }
                host.robotsUnreachable(failure, System.nanoTime(), config.robotsRetryFor());
                permitHeld = false;
                noteGivenUp();
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            gates.exit(host.hostKey, 0);
            release();
        }

        @Override
        public void exchangeOver(RetryPolicy.HostSignal signal) {
            long restUntil = 0;
            lock.lock();
            try {
                if (!permitHeld) {
                    return;
                }
                permitHeld = false;
                restUntil = host.exchangeOver(node, signal, gates, System.nanoTime(), config.hostFailureLimit());
                noteGivenUp();
                turns.ready(host);
            } finally {
                lock.unlock();
            }
            gates.exit(host.hostKey, restUntil);
            slot.close();
        }

        @Override
        public List<PageRecord> complete(PageRecord page, List<Found> found) {
            exchangeOver(RetryPolicy.HostSignal.OK); // a no-op after the task's own call
            lock.lock();
            try {
                if (ended) {
                    return List.of();
                }
                if (cancelled) {
                    end();
                    return List.of();
                }
                node.state = State.COMPLETING;
            } finally {
                lock.unlock();
            }
            List<PageRecord> recorded = new ArrayList<>();
            List<Found> follow = new ArrayList<>(found.size());
            lock.lock();
            try {
                for (Found f : found) {
                    switch (f) {
                        case Found.Invalid invalid -> recorded.add(onSight(invalid.url(), FailureKind.INVALID_URL,
                                invalid.reason()));
                        case Found.Link link when forbidden(link) -> recorded.add(onSight(link.parsed().url(),
                                FailureKind.ROBOTS, hosts.get(link.parsed().hostKey()).queue.rules().reason()));
                        case Found.Link link -> follow.add(link);
                    }
                }
            } finally {
                lock.unlock();
            }
            PageRecord stored = page.withDepth(node.depth);
            List<ClusterStore.Link> admitted;
            try {
                admitted = db.commit(ClusterFrontier.this.node.nodeId(), host.hostKey, hold.epoch(), jobId, stored,
                        links(follow, node.redirects, node.url.url()), recorded, config.maxDepth(), config.maxPages());
            } finally {
                lock.lock();
                try {
                    node.state = State.DONE;
                    end();
                } finally {
                    lock.unlock();
                }
            }
            if (admitted == null) {
                return List.of(); // the host moved to another node, which fetches the URL again
            }
            lock.lock();
            try {
                add(admitted);
            } finally {
                lock.unlock();
            }
            recorded.add(stored);
            return recorded;
        }

        /**
         * A link to a host whose robots.txt this node knows, which forbids it: recorded on sight, as in one
         * process, so it takes nothing from the page limit. Under the lock.
         */
        private boolean forbidden(Found.Link link) {
            if (link.parsed() == null) {
                return false;
            }
            Local local = hosts.get(link.parsed().hostKey());
            return local != null && local.queue.robotsKnown() && !local.queue.rules().allows(link.parsed());
        }

        private PageRecord onSight(String url, FailureKind kind, String detail) {
            return new PageRecord(jobId, url, node.depth + 1, 0, null, null, 0, 0, 0, kind.label(), detail, Instant.now(),
                    Thread.currentThread().getName(), node.url.url(), List.of(), null, null, null, 0);
        }

        /**
         * The links to admit, each at its depth relative to this page's (1; a redirect's target 0): the
         * database knows the page's depth as it stands, and keeps those past the limit as beyond.
         */
        private List<ClusterStore.Link> links(List<Found> found, int redirects, String referrer) {
            List<ClusterStore.Link> links = new ArrayList<>(found.size());
            for (Found f : found) {
                if (f instanceof Found.Link link && link.parsed() != null) {
                    links.add(new ClusterStore.Link(link.parsed().url(), link.parsed().hostKey(), link.redirect() ? 0 : 1,
                            link.redirect() ? redirects + 1 : 0, referrer));
                }
            }
            return links;
        }

        @Override
        public void retry(Duration delay) {
            exchangeOver(RetryPolicy.HostSignal.OK);
            lock.lock();
            try {
                if (ended) {
                    return;
                }
                node.notBefore = System.nanoTime() + delay.toNanos();
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            release();
        }

        @Override
        public void close() {
            boolean freePermit;
            lock.lock();
            try {
                if (ended) {
                    return;
                }
                freePermit = permitHeld;
                permitHeld = false;
                host.abandoned(freePermit, robotsUnknown);
                node.notBefore = 0;
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            if (freePermit) {
                gates.exit(host.hostKey, 0);
            }
            release();
        }

        private void noteGivenUp() {
            if (host.givenUp() != null && !givenUp.containsKey(host.hostKey)) {
                givenUp.put(host.hostKey, host.givenUp().detail());
            }
        }

        /** Back in the host's local queue while this node still holds it; else it waits in the database. Under the lock. */
        private void requeue(long now) {
            ended = true;
            inFlight--;
            if (!cancelled && hosts.get(host.hostKey) == local) {
                turns.requeue(host, node, now);
                queued++;
            } else {
                local.urls.remove(node.url.url());
            }
            changed.signalAll();
        }

        /** Ended with a result stored (or given up to another node). Under the lock. */
        private void end() {
            ended = true;
            inFlight--;
            local.urls.remove(node.url.url());
            turns.ready(host);
            changed.signalAll();
            release();
        }

        /** The fetch slot and this lease's claim on the hold: the node may give the host back once none is left. */
        private void release() {
            slot.close();
            hold.end();
        }
    }
}
