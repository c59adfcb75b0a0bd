package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.Jobs;
import dev.loomcrawl.crawler.Tally;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ClusterView;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

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
 * <p>Every heartbeat ({@link NodeSettings#heartbeat}) the node renews its leases, takes a fair share of the
 * hosts that have work (hosts with work divided by live nodes), gives back hosts over its share or out of
 * work once nothing of theirs is in flight, starts the cluster jobs it does not run yet, stops those
 * cancelled or done, and marks done the jobs with nothing left to fetch. A node that dies loses nothing:
 * once its leases expire, other nodes take its hosts and fetch again what it had in flight.
 *
 * <p>The node wraps a {@link Crawler}, which knows nothing of it: the node runs its share of each cluster job
 * on the crawler ({@link Crawler#runShare}), and as {@link Jobs} it starts, cancels and reports cluster jobs
 * itself and hands the crawler's own jobs to it.
 *
 * <pre>{@code
 * try (PageStore store = PageStore.open("jdbc:postgresql://...");
 *      Crawler crawler = new Crawler(store);
 *      ClusterNode node = ClusterNode.join(crawler, new NodeSettings("a", null, null))) {
 *     node.start(config);
 * }
 * }</pre>
 */
public final class ClusterNode implements Jobs, AutoCloseable {
    private final NodeSettings settings;
    private final Crawler crawler;
    private final PageStore store;
    private final ClusterStore db;
    private final HostHolds holds;
    private final ClusterReports reports;
    private final NodeShares shares;
    private final HostKeys hostKeys;
    private final AtomicBoolean reloading = new AtomicBoolean();
    private final ScheduledExecutorService ticker;
    private final TroubleLog troubles;
    private volatile boolean leaving;
    private volatile boolean closed;

    /**
     * Makes {@code crawler}'s process a node of the cluster of every process on the same PostgreSQL
     * database: from now on this node runs its share of every cluster job until it is closed.
     *
     * @throws IllegalStateException if the store is not PostgreSQL, or a live node has this node id
     */
    public static ClusterNode join(Crawler crawler, NodeSettings settings) {
        return new ClusterNode(settings, crawler);
    }

    private ClusterNode(NodeSettings settings, Crawler crawler) {
        this.settings = settings;
        this.troubles = new TroubleLog(settings.nodeId());
        this.crawler = crawler;
        this.store = crawler.store();
        this.db = ClusterStore.open(store);
        this.holds = new HostHolds(db, settings, crawler.gates());
        this.reports = new ClusterReports(db, store, settings);
        this.shares = new NodeShares(new NodeMembership(settings, db, holds, crawler.options().perHost(), troubles), crawler,
                reports);
        this.hostKeys = new HostKeys(db, crawler.gates(), this::trouble);
        try {
            requireFree(db.leases().nodes(), settings);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        db.leases().restart(settings.nodeId()); // leases an earlier process of this name held are void now
        db.leases().heartbeat(settings.nodeId(), settings.address(), 0, 0);
        this.ticker = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("cluster-heartbeat").daemon(true).factory());
        ticker.scheduleWithFixedDelay(this::tick, 0, settings.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Refuses a node id a live node uses: two processes under one name would both believe they hold the
     * same hosts. A node that died frees its name once its heartbeat is older than a lease.
     *
     * @throws IllegalStateException naming the node and how long ago it was last heard of
     */
    public static void requireFree(Database database, NodeSettings settings) {
        ClusterStore.migrate(database.store()); // its nodes table may not be there yet
        requireFree(ClusterLeases.nodes(database.store().readers()), settings);
    }

    private static void requireFree(List<ClusterLeases.NodeRow> nodes, NodeSettings settings) {
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        for (ClusterLeases.NodeRow n : nodes) {
            if (n.nodeId().equals(settings.nodeId()) && n.heartbeatAgeSeconds() < ttl) {
                throw new IllegalStateException(String.format(Locale.ROOT, "node id '%s' is in use by a live"
                        + " node (%s, heard from %.1f s ago): give this one another --node-id, or wait %.0f s if that"
                        + " node has died", n.nodeId(), n.address(), n.heartbeatAgeSeconds(), ttl - n.heartbeatAgeSeconds() + 1));
            }
        }
    }

    public String nodeId() {
        return settings.nodeId();
    }

    public NodeSettings settings() {
        return settings;
    }

    /** Checks a job can run in this cluster: its fetch deadline must fit in a lease. */
    void check(CrawlConfig config) {
        if (config.fetch().fetchDeadline().compareTo(settings.maxFetchDeadline()) > 0) {
            throw new ConfigException("fetchDeadline", config.fetch().fetchDeadline(), "must be at most "
                    + settings.maxFetchDeadline().toMillis() + " ms in this cluster (its lease of "
                    + settings.leaseTtl().toSeconds() + " s less a safety margin), was "
                    + config.fetch().fetchDeadline().toMillis() + " ms");
        }
    }

    /** Creates a cluster job with its seeds; every node (this one at once) starts its share. */
    @Override
    public CrawlJob start(CrawlConfig config) {
        check(config);
        long id = store.jobs().create(config.execution().mode().label(), config.execution().poolSize(),
                ConfigCodec.toJson(config), true);
        List<ClusterStore.Link> seeds = config.scope().seeds().stream()
                .map(s -> new ClusterStore.Link(s.url(), s.hostKey(), 0, 0, null)).toList();
        db.admitSeeds(id, seeds);
        return shares.launch(id, config);
    }

    /**
     * Cancels a job: a cluster job everywhere (durable when this returns; every node stops it at its next
     * heartbeat), one of the crawler's own as the crawler does.
     */
    @Override
    public boolean cancel(long id) {
        if (!store.jobs().find(id).map(JobRow::cluster).orElse(false)) {
            return crawler.cancel(id);
        }
        boolean was = store.jobs().cancel(id);
        db.dropQueued(id);
        if (shares.runs(id)) {
            crawler.job(id).ifPresent(CrawlJob::cancel);
        }
        return was;
    }

    /** A job as reported: a cluster job with every node's share, one of the crawler's own as it reports it. */
    @Override
    public Optional<JobReport> report(long id) {
        return store.jobs().find(id).map(this::report);
    }

    @Override
    public List<JobReport> reports(int offset, int limit) {
        return store.jobs().list(offset, limit).stream().map(this::report).toList();
    }

    private JobReport report(JobRow row) {
        return row.cluster() ? reports.report(row, crawler.job(row.id()).orElse(null)) : crawler.report(row);
    }

    /** Leaves the cluster's work, then suspends the crawler's jobs (its shares among them) as it does. */
    @Override
    public void suspend(Duration grace) throws InterruptedException {
        leave(); // the heartbeat must not start the cluster jobs again as they end here
        crawler.suspend(grace);
    }

    /** Leaves the cluster's work, then shuts the crawler down: its own jobs cancelled, its shares suspended. */
    @Override
    public void shutdown(Duration grace) throws InterruptedException {
        leave();
        crawler.shutdown(grace);
    }

    // ---- the heartbeat

    private void tick() {
        if (closed) {
            return;
        }
        try {
            long start = System.nanoTime();
            // The process's counters, not crawler.stats(): that also builds latency percentiles and sorts the
            // busiest hosts, twice a second for two numbers.
            Tally totals = crawler.totals();
            db.leases().heartbeat(settings.nodeId(), settings.address(), totals.pages() + totals.failed() + totals.skipped(),
                    (int) totals.fetching());
            holds.renew(start);
            endDeadNodesTransactions();
            reloadSettings(); // an operator's PUT /hosts/{key} on any node, in force here within a beat or so
            shares.follow(leaving);
            Set<PolitenessKey> keys = shares.kinds();
            hostKeys.fill(keys);
            holds.balance(start, !leaving && shares.any(), keys, shares::held);
            reports.write(shares.jobs());
        } catch (RuntimeException e) {
            trouble("the heartbeat", e); // leases run out by themselves if this persists: requests stop starting
        }
    }

    /**
     * Frees the hosts a node dead by heartbeat still locks from inside a store it never finished
     * ({@link ClusterLeases#endDeadNodesTransactions}); without the right to end them (a database role of its own
     * per node), its hosts wait until it wakes.
     */
    private void endDeadNodesTransactions() {
        try {
            int ended = db.leases().endDeadNodesTransactions(settings.leaseTtl());
            if (ended > 0) {
                troubles.did("ended " + ended + " open transaction(s) of nodes dead by heartbeat, so their hosts can move on");
            }
        } catch (RuntimeException e) {
            trouble("ending a dead node's transactions", e);
        }
    }

    /**
     * Reads operators' settings again on a virtual thread of its own, one read at a time: the read goes through
     * the store's main pool, which a heartbeat must never wait for (its lease renewals would be late).
     */
    private void reloadSettings() {
        if (reloading.compareAndSet(false, true)) {
            Thread.ofVirtual().name("cluster-settings").start(() -> {
                try {
                    crawler.hosts().reload();
                } catch (RuntimeException e) {
                    trouble("reading politeness settings", e);
                } finally {
                    reloading.set(false);
                }
            });
        }
    }

    /** Says what went wrong, at most once a minute ({@link TroubleLog}). */
    private void trouble(String what, RuntimeException e) {
        troubles.say(what, e);
    }

    /** The cluster's nodes and leases. */
    public ClusterView view() {
        return reports.view();
    }

    /**
     * Starts leaving: this node takes no new job and no new host from now on (its jobs are being
     * suspended), while its heartbeat keeps its leases until {@link #close}.
     */
    void leave() {
        leaving = true;
    }

    /**
     * Leaves the cluster: suspends this node's shares (up to 10 s; the crawler's own jobs run on), stops the
     * heartbeat and gives back every host, so other nodes take them at once instead of after the lease
     * expires. The crawler is the caller's to close, after this.
     */
    @Override
    public void close() {
        leaving = true;
        try {
            Jobs.suspendAll(shares.jobs(), Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        ticker.shutdown();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        shares.drainAll();
        holds.releaseAll(this::trouble);
        db.close();
    }
}
