package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.cluster.ClusterStore.Committed;
import dev.loomcrawl.crawler.cluster.ClusterStore.Link;
import dev.loomcrawl.crawler.concurrent.Handoff;
import dev.loomcrawl.crawler.store.Readers;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A cluster node's results, committed to PostgreSQL in batches: the leases of the node hand their results
 * over and wait; one thread gathers what comes within {@link #LINGER} (at most {@link #BATCH}) and commits it
 * in one transaction of a few statements, whatever the number of pages: the holds checked, the rows stored,
 * the links admitted, shorter paths lowered, the URLs marked done (or due again), the job's admitted count, a
 * continuous job's change events. A result whose host is no longer this node's at its epoch is left out (its new
 * owner fetches the URL again).
 *
 * <p>What a job's results write is {@link ClusterResults}'s. The order of the steps keeps batches of different
 * nodes from waiting on each other in a circle: the holds first (shared locks), then rows only this batch inserts
 * (in URL order), then the rows it must lock to lower (in URL order), its own rows last (in URL order).
 * PostgreSQL breaks a deadlock all the same by failing one side, which runs again ({@link
 * ClusterSql#transaction}); a batch that fails otherwise is committed again one result at a time, so that one bad
 * result fails alone. Each transaction carries its node's name, so that the others can end it if the node dies
 * inside it ({@link ClusterLeases#endDeadNodesTransactions}).
 */
final class ClusterCommits implements AutoCloseable {
    /** Results in one transaction at most. */
    static final int BATCH = 128;
    /** How long a batch gathers results after its first: at a few dozen pages a second, a handful each. */
    static final Duration LINGER = Duration.ofMillis(200);

    /**
     * One lease's result, or a sitemap's links ({@code page} null), for its job under the host's hold at
     * {@code epoch}; {@code visit} what a continuous job's visit writes besides (null on a one-pass job).
     */
    record Commit(String nodeId, String hostKey, long epoch, long jobId, @Nullable PageRecord page,
            ClusterStore.@Nullable VisitWrite visit, List<Link> links, List<PageRecord> recorded, int maxDepth,
            int maxPages) {

        /** The page this commit stores, for a commit known to store one (a sitemap's links alone store none). */
        PageRecord stored() {
            return Objects.requireNonNull(page, "this commit stores links only");
        }

        boolean revisit() {
            return visit != null && visit.revisit();
        }
    }

    private record Pending(Commit commit, CompletableFuture<Committed> done) {}

    private static final Committed LOST = new Committed(List.of(), List.of()); // the host is no longer ours: nothing stored
    @SuppressWarnings("NullAway") // a sentinel: only its identity is read
    private static final Pending WAKE = new Pending(null, null); // handed over by close only

    private final Readers pool;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    ClusterCommits(Readers pool) {
        this.pool = pool;
        this.thread = Thread.ofVirtual().name("cluster-commits").start(this::run);
    }

    /**
     * Commits {@code commit} with others and waits, through interrupts (the interrupt is kept for the caller).
     *
     * @return what was stored, or null if the host is no longer ours
     * @throws StoreException if it could not be stored
     */
    @Nullable Committed commit(Commit commit) {
        if (closed) {
            throw new StoreException("cluster storage is closed", null);
        }
        Pending pending = new Pending(commit, new CompletableFuture<>());
        queue.add(pending);
        Committed committed = Handoff.await(pending.done());
        return committed == LOST ? null : committed;
    }

    /** Stores what was handed over before, then stops; a commit after this fails. */
    @Override
    public void close() {
        closed = true;
        queue.add(WAKE); // the thread is never interrupted: it may be inside a transaction
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Pending left;
        while ((left = queue.poll()) != null) {
            if (left != WAKE) {
                left.done().completeExceptionally(new StoreException("cluster storage closed before this was stored", null));
            }
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            try {
                Pending next = queue.take();
                long until = System.nanoTime() + LINGER.toNanos();
                while (next != null && next != WAKE) {
                    batch.add(next);
                    next = batch.size() < BATCH ? queue.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS) : null;
                }
                stop = next == WAKE && closed;
            } catch (InterruptedException e) {
                stop = closed; // no one else interrupts this thread
            }
            commitAll(batch);
            batch.clear();
        }
    }

    /** Commits a batch, each node's results in one transaction; if that fails, each result in one of its own. */
    private void commitAll(List<Pending> batch) {
        Map<String, List<Pending>> byNode = new TreeMap<>(); // one store serves one node, but for tests
        for (Pending p : batch) {
            byNode.computeIfAbsent(p.commit().nodeId(), node -> new ArrayList<>()).add(p);
        }
        byNode.forEach(this::commitAll);
    }

    private void commitAll(String nodeId, List<Pending> batch) {
        try {
            Map<Pending, Committed> done = ClusterSql.transaction(pool, c -> commit(c, nodeId, batch));
            done.forEach((p, committed) -> p.done().complete(committed));
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.getFirst().done().completeExceptionally(e);
                return;
            }
            for (Pending p : batch) {
                commitAll(nodeId, List.of(p));
            }
        }
    }

    private static Map<Pending, Committed> commit(Connection c, String nodeId, List<Pending> batch) throws SQLException {
        ClusterLeases.nameTransaction(c, nodeId);
        Map<Pending, Committed> done = new IdentityHashMap<>();
        Map<Long, List<Pending>> byJob = new TreeMap<>();
        TreeSet<String> hosts = new TreeSet<>();
        for (Pending p : batch) {
            hosts.add(p.commit().hostKey());
        }
        Map<String, Long> holds = stillOurs(c, nodeId, hosts); // host -> epoch, locked to the commit
        for (Pending p : batch) {
            Long epoch = holds.get(p.commit().hostKey());
            if (epoch == null || epoch != p.commit().epoch()) {
                done.put(p, LOST);
            } else {
                byJob.computeIfAbsent(p.commit().jobId(), job -> new ArrayList<>()).add(p);
            }
        }
        for (List<Pending> job : byJob.values()) {
            ClusterResults.Stored stored = ClusterResults.store(c, job.stream().map(Pending::commit).toList());
            for (Pending p : job) {
                List<Link> queued = p == job.getFirst() ? stored.queued() : List.of(); // the node's queues take them once
                done.put(p, new Committed(queued, stored.rows().getOrDefault(p.commit(), List.of())));
            }
        }
        return done;
    }

    /** The hosts {@code nodeId} holds among {@code hosts}, with their epochs: one statement for the batch. */
    private static Map<String, Long> stillOurs(Connection c, String nodeId, TreeSet<String> hosts) throws SQLException {
        Map<String, Long> ours = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT host_key, epoch FROM cluster_hosts WHERE owner = ?"
                + " AND host_key = ANY (?) ORDER BY host_key FOR KEY SHARE")) {
            ps.setString(1, nodeId);
            ps.setArray(2, c.createArrayOf("text", hosts.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ours.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return ours;
    }
}
