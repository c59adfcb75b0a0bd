package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.store.ClusterStore;
import dev.loomcrawl.crawler.store.JobRow;
import dev.loomcrawl.crawler.store.PageStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;

/**
 * This process as one node of a cluster: nodes that share a PostgreSQL database share its cluster jobs.
 *
 * <p>Politeness stays global because a host is leased to one node at a time: a lease row per host with an
 * owner, an epoch and an expiry, taken with {@code FOR UPDATE SKIP LOCKED} and renewed by this node's
 * heartbeat. The node's own {@link HostGates} then bound the whole cluster. A request starts only while
 * the lease has more than a whole fetch's time left ({@link #marginNanos}), counted on this node's
 * monotonic clock from before the database granted it, so a node paused past its lease cannot start a
 * request on a host another node has taken. (A request that passed the check, asked again as the HTTP client
 * builds its head, and was frozen before the client wrote it still goes out when the node wakes: no lease
 * closes that without the server's help. At most one per permit held, once per freeze.) A URL's result is
 * stored only while the lease is still this node's, at the same epoch, in the transaction that marks it done:
 * one stored result per URL, always.
 *
 * <p>Every heartbeat ({@link Settings#heartbeat}) the node renews its leases, takes a fair share of the
 * hosts that have work (hosts with work divided by live nodes), gives back hosts over its share or out of
 * work once nothing of theirs is in flight, starts the cluster jobs it does not run yet, stops those
 * cancelled or done, and marks done the jobs with nothing left to fetch. A node that dies loses nothing:
 * once its leases expire, other nodes take its hosts and fetch again what it had in flight.
 */
public final class ClusterNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    /** Time kept in hand beyond a fetch's deadline before a request may start under a lease. */
    static final Duration SAFETY = Duration.ofSeconds(1);

    /**
     * How this node joins.
     *
     * @param nodeId its name, unique in the cluster: letters, digits, {@code . _ : -}, up to 64
     * @param address where its API listens, shown by {@code GET /cluster}; may be null
     * @param leaseTtl how long a host lease lasts unless renewed: how soon a dead node's hosts move on
     *     (default 30 s); a cluster job's fetch deadline must fit in it with room for two heartbeats
     */
    public record Settings(String nodeId, String address, Duration leaseTtl) {
        public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

        public Settings {
            if (nodeId == null || !NODE_ID.matcher(nodeId).matches()) {
                throw new ConfigException("nodeId", nodeId,
                        "must be 1 to 64 letters, digits or . _ : -, was '" + nodeId + "'");
            }
            if (leaseTtl == null || leaseTtl.compareTo(Duration.ofSeconds(2)) < 0 || leaseTtl.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new ConfigException("leaseTtl", leaseTtl, "must be between 2 s and 10 min, was " + leaseTtl);
            }
        }

        /** How often the node renews, balances and looks for jobs: a sixth of the lease, at most half a second. */
        public Duration heartbeat() {
            return leaseTtl.dividedBy(6).compareTo(Duration.ofMillis(500)) < 0 ? leaseTtl.dividedBy(6) : Duration.ofMillis(500);
        }

        /** A cluster job's fetch deadline unless it sets one: the usual 30 s, or less if the lease is short. */
        public Duration defaultFetchDeadline() {
            Duration usual = Duration.ofSeconds(30);
            return usual.compareTo(maxFetchDeadline()) < 0 ? usual : maxFetchDeadline();
        }

        /** The longest fetch deadline a cluster job may have: the lease must outlast a fetch started on it. */
        public Duration maxFetchDeadline() {
            return leaseTtl.minus(SAFETY).minus(heartbeat().multipliedBy(2));
        }
    }

    /** A host this node holds, at an epoch. Requests under it are counted, so it is given back only when idle. */
    static final class Hold {
        private final String hostKey;
        private final long epoch;
        private volatile long validUntil; // System.nanoTime()
        private int active; // leases out under this hold; guarded by this
        private volatile boolean giving; // over this node's share: hand out nothing more, give back when idle
        private boolean gone; // given back or lost

        Hold(String hostKey, long epoch, long validUntil) {
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

    /** One node's share of a cluster job, as {@code GET /crawl/{id}} shows it. */
    public record Share(String node, long pages, long failed, long skipped, long fetches, int inFlight, boolean live) {}

    /** The cluster as {@code GET /cluster} shows it. */
    public record View(String self, double leaseTtlSeconds, List<NodeView> nodes, List<ClusterStore.LeaseRow> leases) {}

    /** A node of the cluster: live while its heartbeat is younger than a lease. */
    public record NodeView(String nodeId, String address, Instant startedAt, Instant lastHeartbeat,
            double heartbeatAgeSeconds, boolean live,
            long pages, int fetching, int hosts) {}

    private final Settings settings;
    private final Crawler crawler;
    private final PageStore store;
    private final ClusterStore db;
    private final ConcurrentHashMap<String, Hold> holds = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, ClusterBackend> frontiers = new ConcurrentHashMap<>();
    /** Per job, what this node had reported in earlier runs, before this run's share began. */
    private final ConcurrentHashMap<Long, ClusterStore.Work> earlier = new ConcurrentHashMap<>();
    private static final ClusterStore.Work NO_WORK = new ClusterStore.Work("", 0, 0, 0, 0, 0, 0);
    // Held while this node's figures for its jobs are written: a job's last report is never followed by an
    // older one the heartbeat read before the job ended.
    private final ReentrantLock reporting = new ReentrantLock();
    private final ScheduledExecutorService ticker;
    private volatile long lastTroubleNanos;
    private volatile boolean leaving;
    private volatile boolean closed;

    ClusterNode(Settings settings, Crawler crawler) {
        this.settings = settings;
        this.crawler = crawler;
        this.store = crawler.store();
        this.db = store.cluster();
        requireFree(db, settings);
        db.restart(settings.nodeId()); // leases an earlier process of this name held are void now
        db.heartbeat(settings.nodeId(), settings.address(), 0, 0);
        this.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("cluster-heartbeat").daemon(true).factory());
        ticker.scheduleWithFixedDelay(this::tick, 0, settings.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Refuses a node id a live node uses: two processes under one name would both believe they hold the
     * same hosts. A node that died frees its name once its heartbeat is older than a lease.
     *
     * @throws IllegalStateException naming the node and how long ago it was last heard of
     */
    public static void requireFree(PageStore store, Settings settings) {
        requireFree(store.cluster(), settings);
    }

    private static void requireFree(ClusterStore db, Settings settings) {
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        for (ClusterStore.NodeRow n : db.nodes()) {
            if (n.nodeId().equals(settings.nodeId()) && n.heartbeatAgeSeconds() < ttl) {
                throw new IllegalStateException(String.format(java.util.Locale.ROOT, "node id '%s' is in use by a live"
                        + " node (%s, heard from %.1f s ago): give this one another --node-id, or wait %.0f s if that"
                        + " node has died", n.nodeId(), n.address(), n.heartbeatAgeSeconds(), ttl - n.heartbeatAgeSeconds() + 1));
            }
        }
    }

    public String nodeId() {
        return settings.nodeId();
    }

    public Settings settings() {
        return settings;
    }

    ClusterStore db() {
        return db;
    }

    Hold hold(String hostKey) {
        Hold hold = holds.get(hostKey);
        return hold == null || hold.gone ? null : hold;
    }

    Set<String> holdKeys() {
        return Set.copyOf(holds.keySet());
    }

    /** Leases out at once under one hold: twice the process's per-host limit. */
    int leasesPerHold() {
        // Requests are bounded by the host's permits; a lease whose result waits for its batch to commit
        // (ClusterCommits) holds no permit but still counts here, so twice that: fetching and storing.
        return 2 * crawler.options().perHost();
    }

    /** How much lease must be left for a request of this job to start: its fetch deadline and a second. */
    long marginNanos(CrawlConfig config) {
        return config.fetchDeadline().plus(SAFETY).toNanos();
    }

    /** Checks a job can run in this cluster: its fetch deadline must fit in a lease. */
    void check(CrawlConfig config) {
        if (config.fetchDeadline().compareTo(settings.maxFetchDeadline()) > 0) {
            throw new ConfigException("fetchDeadline", config.fetchDeadline(), "must be at most "
                    + settings.maxFetchDeadline().toMillis() + " ms in this cluster (its lease of "
                    + settings.leaseTtl().toSeconds() + " s less a safety margin), was " + config.fetchDeadline().toMillis() + " ms");
        }
    }

    /** Creates a cluster job with its seeds; every node (this one at once) starts its share. */
    CrawlJob create(CrawlConfig config) {
        check(config);
        long id = store.createJob(config.mode().label(), config.poolSize(), ConfigCodec.toJson(config), true);
        List<ClusterStore.Link> seeds = config.seeds().stream()
                .map(s -> new ClusterStore.Link(s.url(), s.hostKey(), 0, 0, null)).toList();
        db.admitSeeds(id, seeds);
        return launch(id, config);
    }

    /** Runs this node's share of a job, once: the heartbeat may find a job this node is creating right now. */
    private synchronized CrawlJob launch(long id, CrawlConfig config) {
        if (frontiers.containsKey(id)) {
            return crawler.job(id).orElseThrow();
        }
        ClusterBackend frontier = ClusterBackend.of(id, config, crawler.gates(), this);
        // What this node did for the job in earlier runs (a process killed and started again keeps its node
        // id): this run's figures are reported on top of it, not in its place.
        earlier.put(id, db.work(id).stream().filter(w -> w.nodeId().equals(settings.nodeId())).findFirst()
                .orElse(NO_WORK));
        frontiers.put(id, frontier);
        return crawler.launchCluster(id, config, frontier.frontier(), job -> ended(job, frontier));
    }

    /**
     * This node's share of a job has ended: its figures as they stand at the end, then the job is forgotten.
     * Without this last report the job's shares kept what the heartbeat had written up to half a second
     * before: the work of a node's last beat went missing from them.
     */
    private void ended(CrawlJob job, ClusterBackend frontier) {
        reporting.lock();
        try {
            reportWork(job);
        } catch (RuntimeException e) {
            trouble("the last report of job " + job.id(), e); // its share stays as the heartbeat last wrote it
        } finally {
            frontiers.remove(job.id(), frontier);
            earlier.remove(job.id()); // a later share of the job reads what this one reported
            reporting.unlock();
        }
    }

    /** Cancels a cluster job everywhere: durable when this returns; every node stops it at its next heartbeat. */
    boolean cancel(long id) {
        boolean was = store.cancelJob(id);
        db.dropQueued(id);
        ClusterBackend frontier = frontiers.get(id);
        if (frontier != null) {
            crawler.job(id).ifPresent(CrawlJob::cancel);
        }
        return was;
    }

    // ---- the heartbeat

    private void tick() {
        if (closed) {
            return;
        }
        try {
            long start = System.nanoTime();
            // The process's counters, not crawler.figures(): that also builds latency percentiles and sorts the
            // busiest hosts, twice a second for two numbers.
            Tally totals = crawler.totals();
            db.heartbeat(settings.nodeId(), settings.address(), totals.pages() + totals.failed() + totals.skipped(),
                    (int) totals.fetching());
            renew(start);
            jobs();
            balance(start);
            report();
        } catch (RuntimeException e) {
            trouble("the heartbeat", e); // leases run out by themselves if this persists: requests stop starting
        }
    }

    /** Extends every lease; those missing from the answer went to another node. */
    private void renew(long start) {
        Map<String, ClusterStore.Hold> renewed = new java.util.HashMap<>();
        for (ClusterStore.Hold h : db.renew(settings.nodeId(), settings.leaseTtl())) {
            renewed.put(h.hostKey(), h);
        }
        for (Hold hold : List.copyOf(holds.values())) {
            ClusterStore.Hold now = renewed.get(hold.hostKey);
            if (now == null || now.epoch() != hold.epoch) {
                hold.lost();
                holds.remove(hold.hostKey, hold);
            } else {
                hold.validUntil = start + TimeUnit.MILLISECONDS.toNanos(now.validMillis());
            }
        }
    }

    /** Starts cluster jobs this node does not run yet; stops those cancelled; ends those done; marks done the finished. */
    private void jobs() {
        for (long id : db.finishDone()) {
            writeSummary(id);
        }
        Set<Long> unfinished = new java.util.HashSet<>();
        for (JobRow row : store.unfinishedJobs()) {
            unfinished.add(row.id());
            if (!leaving && row.cluster() && !frontiers.containsKey(row.id()) && row.status().equals("running")) {
                try {
                    launch(row.id(), ConfigCodec.fromJson(row.config()));
                } catch (ConfigException e) {
                    trouble("job " + row.id() + " (unreadable config)", e);
                }
            }
        }
        // Only a job run here missing from that list needs its row read: cancelled, or done (or just created).
        for (Map.Entry<Long, ClusterBackend> e : frontiers.entrySet()) {
            if (unfinished.contains(e.getKey())) {
                continue;
            }
            store.job(e.getKey()).ifPresent(row -> {
                if (row.status().equals("cancelled")) {
                    crawler.job(row.id()).ifPresent(CrawlJob::cancel);
                } else if (!row.unfinished()) { // a job created here since the list was read is running
                    e.getValue().frontier().finish();
                }
            });
        }
    }

    private void writeSummary(long id) {
        store.job(id).ifPresent(row -> store.updateJob(id, JobStatus.DONE.label(), Summaries.json(wholeJobSummary(row))));
    }

    private CrawlSummary wholeJobSummary(JobRow row) {
        return Summaries.wholeJob(store, row.id(), JobStatus.DONE, ConfigCodec.fromJson(row.config()),
                new JobStats(null, 0, 0, 0), Map.of());
    }

    /**
     * Takes hosts up to a fair share of those with work; gives back hosts over it (with hysteresis, so two
     * nodes do not trade one host back and forth) and hosts with nothing left, once nothing of theirs is out.
     */
    private void balance(long start) {
        int withWork = db.hostsWithWork();
        int nodes = Math.max(1, db.liveNodes(settings.leaseTtl()));
        int share = (withWork + nodes - 1) / nodes;
        List<String> idle = db.idleHolds(settings.nodeId());
        for (String hostKey : idle) {
            Hold hold = holds.get(hostKey);
            if (hold != null) {
                hold.giving = true;
            }
        }
        int held = (int) holds.values().stream().filter(h -> !h.giving).count();
        if (held > share + 1) {
            // Over the share: give some back, chosen by name so that the choice holds from one beat to the next.
            holds.values().stream().filter(h -> !h.giving).sorted(Comparator.comparing(h -> h.hostKey))
                    .limit(held - share).forEach(h -> h.giving = true);
            held = share;
        }
        for (Hold hold : List.copyOf(holds.values())) {
            if (hold.giving && hold.goneIfIdle()) {
                holds.remove(hold.hostKey, hold);
                db.release(settings.nodeId(), hold.hostKey, hold.epoch, crawler.gates().restLeftMillis(hold.hostKey));
            }
        }
        if (!leaving && !frontiers.isEmpty() && held < share) {
            for (ClusterStore.Hold h : db.acquire(settings.nodeId(), share - held, settings.leaseTtl())) {
                Hold hold = new Hold(h.hostKey(), h.epoch(), start + TimeUnit.MILLISECONDS.toNanos(h.validMillis()));
                holds.put(h.hostKey(), hold);
                if (h.restMillis() > 0) {
                    crawler.gates().rest(h.hostKey(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(h.restMillis()));
                }
                frontiers.values().forEach(f -> f.held(h.hostKey()));
            }
        }
    }

    /** Each job's figures on this node, for the whole job's progress on any node. */
    private void report() {
        reporting.lock();
        try {
            for (long id : frontiers.keySet()) {
                crawler.job(id).ifPresent(this::reportWork);
            }
        } finally {
            reporting.unlock();
        }
    }

    private void reportWork(CrawlJob job) {
        CrawlProgress p = job.progress();
        ClusterStore.Work before = earlier.getOrDefault(job.id(), NO_WORK);
        db.reportWork(job.id(), settings.nodeId(), before.pages() + p.pages(), before.failed() + p.failed(),
                before.skipped() + p.skipped(), before.fetches() + p.pages() + p.failed(), (int) p.inFlight());
    }

    /** Says what went wrong, at most once a minute: a database outage must not flood the log. */
    void trouble(String what, RuntimeException e) {
        long now = System.nanoTime();
        if (lastTroubleNanos == 0 || now - lastTroubleNanos > TimeUnit.MINUTES.toNanos(1)) {
            lastTroubleNanos = now;
            LOG.log(System.Logger.Level.WARNING, "cluster node " + settings.nodeId() + ": " + what + " failed: "
                    + e.getMessage());
        }
    }

    // ---- views

    /** A cluster job's progress summed over nodes, from the database, with each node's share. */
    JobReport report(JobRow row, CrawlJob live) {
        ClusterStore.Counts counts = db.counts(row.id());
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        List<Share> shares = new ArrayList<>();
        long inFlight = 0;
        for (ClusterStore.Work w : db.work(row.id())) {
            boolean liveNode = w.ageSeconds() < ttl;
            shares.add(new Share(w.nodeId(), w.pages(), w.failed(), w.skipped(), w.fetches(), liveNode ? w.inFlight() : 0, liveNode));
            inFlight += liveNode ? w.inFlight() : 0;
        }
        CrawlSummary summary = row.unfinished() ? null : Summaries.parse(row.summary());
        if (summary == null && row.status().equals("done")) {
            // Marked done by a heartbeat whose summary is not written yet: the summary it is writing, so a
            // reader never sees a done job without one.
            summary = wholeJobSummary(row);
        }
        double seconds = Math.max(0.001, Duration.between(row.createdAt(),
                row.finishedAt() != null ? row.finishedAt() : Instant.now()).toMillis() / 1000.0);
        long stored = counts.pages() + counts.failed() + counts.skipped();
        CrawlProgress here = live == null ? null : live.progress();
        String status = live != null ? row.status() : row.shownStatus(java.time.Instant.now(), false);
        CrawlProgress progress = new CrawlProgress(row.id(), status, counts.pages(), counts.failed(), counts.skipped(),
                counts.queued(), inFlight, here == null ? 0 : here.fetching(), JobStats.round1(seconds),
                JobStats.round1(stored / seconds), here == null ? 0 : here.recentPagesPerSecond(),
                ConfigCodec.maxPages(row.config()), summary != null ? summary.failures() : Map.of());
        return new JobReport(row.id(), status, row.mode(), row.poolSize(), ConfigCodec.seeds(row.config()),
                row.createdAt(), row.finishedAt(), progress, summary, true, shares);
    }

    /** The cluster's nodes and leases. */
    public View view() {
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        List<NodeView> nodes = db.nodes().stream().map(n -> new NodeView(n.nodeId(), n.address(), n.startedAt(),
                n.heartbeatAt(), JobStats.round1(n.heartbeatAgeSeconds()), n.heartbeatAgeSeconds() < ttl, n.pages(), n.fetching(), n.hosts()))
                .toList();
        return new View(settings.nodeId(), ttl, nodes, db.leases());
    }

    /**
     * Starts leaving: this node takes no new job and no new host from now on (its jobs are being
     * suspended), while its heartbeat keeps its leases until {@link #close}.
     */
    void leave() {
        leaving = true;
    }

    /**
     * Leaves the cluster: stops the heartbeat and gives back every host (its jobs were suspended first, so
     * nothing is in flight), so other nodes take them at once instead of after the lease expires.
     */
    @Override
    public void close() {
        leaving = true;
        closed = true;
        ticker.shutdown();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        frontiers.values().forEach(f -> f.frontier().drain());
        for (Hold hold : List.copyOf(holds.values())) {
            if (hold.goneIfIdle()) {
                try {
                    db.release(settings.nodeId(), hold.hostKey, hold.epoch, crawler.gates().restLeftMillis(hold.hostKey));
                } catch (RuntimeException e) {
                    trouble("giving back " + hold.hostKey, e); // it expires by itself
                }
            }
        }
        holds.clear();
    }
}
