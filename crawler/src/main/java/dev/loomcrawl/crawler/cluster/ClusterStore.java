package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.store.Dialect;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.Readers;
import dev.loomcrawl.crawler.store.Schema;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The SQL by which nodes of a cluster share crawl jobs through one PostgreSQL database: the shared frontier
 * ({@code cluster_frontier}, one row per URL of a job, {@code queued} until its result is stored, and on a
 * continuous job queued again with the time it is due, {@code due_at}), one lease
 * per host ({@code cluster_hosts}: owner, epoch, expiry), and the nodes with their heartbeats.
 *
 * <p>Every time is the database's ({@code now()}): nodes' clocks may disagree, the database's is one. A
 * lease's time left is handed back as a duration, which a node counts down on its own monotonic clock from
 * before it asked: it never believes in more time than the database gave.
 */
final class ClusterStore implements AutoCloseable {

    /** A URL for the shared frontier. */
    public record Link(String url, String hostKey, int depth, int redirects, @Nullable String referrer) {}

    /**
     * What one commit stored: the links now queued that were not before, and its rows the database took (a row
     * of a URL already stored, such as a link another page recorded on sight first, is not stored again).
     */
    public record Committed(List<Link> queued, List<PageRecord> stored) {}

    /**
     * What a continuous job's visit writes besides a first visit's row: a revisit's new content in place of the
     * URL's row ({@code rewrite}, null to keep it), its change event, and the URL's schedule: due again
     * {@code dueInMillis} after the commit (null: not visited again), with the changes seen so far, since when
     * the URL is watched and the interval the schedule chose (see {@code revisit.RevisitSchedule}).
     */
    public record VisitWrite(boolean revisit, @Nullable PageRecord rewrite, @Nullable Change change,
            @Nullable Long dueInMillis, int changes, @Nullable Instant watchedSince, long intervalMillis) {}

    /**
     * A stored URL of a continuous job that is due soon, as its last visit left it: what identified its content
     * (for a conditional request, and to tell a change) and its schedule. {@code dueInMillis} is counted from the
     * read, by the database's clock (negative: overdue).
     */
    public record Due(Link link, @Nullable String etag, @Nullable String lastModified, @Nullable String digest,
            @Nullable Long simhash, int status, @Nullable String movedTo, int changes, @Nullable Instant watchedSince,
            long intervalMillis, long dueInMillis) {}

    /** What one node did for one job, as it last reported. */
    public record Work(String nodeId, long pages, long failed, long skipped, long fetches, int inFlight,
            double ageSeconds) {}

    /** A job's URLs waiting ({@code queued}), of which {@code due} now. */
    public record Waiting(long queued, long due) {}

    /** The store's pool, shared with its reads. */
    private final Readers pool;
    /** The heartbeat's own small pool: renewing leases must not wait for connections busy storing pages. */
    private final Readers beat;

    private final AtomicBoolean closed = new AtomicBoolean();
    private final ClusterCommits commits;
    private final ClusterLeases leases;

    /**
     * What nodes of a cluster share through {@code store}'s database, its tables brought to today's schema;
     * closed before the store.
     *
     * @throws IllegalStateException on H2: a cluster needs PostgreSQL
     */
    public static ClusterStore open(PageStore store) {
        migrate(store);
        // The heartbeat gets connections of its own: lease renewals never queue behind crawl results.
        return new ClusterStore(store.readers(), Readers.postgres(store.jdbcUrl(), 2, "loomcrawl-heartbeat"));
    }

    /**
     * Brings the cluster's tables in {@code store}'s database to today's schema, on a connection taken in line
     * with the store's other reads.
     *
     * @throws IllegalStateException on H2: a cluster needs PostgreSQL
     */
    @SuppressWarnings("NullAway") // its work returns nothing: null, as a Void
    static void migrate(PageStore store) {
        if (store.dialect() != Dialect.POSTGRES) {
            throw new IllegalStateException("a cluster needs a PostgreSQL database (--db=jdbc:postgresql://...), was "
                    + Passwords.hidden(store.jdbcUrl()));
        }
        try {
            store.readers().withConnection(c -> {
                Schema.extend(c, ClusterSchema::migrate);
                return null;
            });
        } catch (SQLException e) {
            throw new StoreException("creating the cluster's tables", e);
        }
    }

    private ClusterStore(Readers pool, Readers beat) {
        this.pool = pool;
        this.beat = beat;
        this.commits = new ClusterCommits(pool);
        this.leases = new ClusterLeases(pool, beat);
    }

    /** The nodes and their leases on hosts. */
    public ClusterLeases leases() {
        return leases;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            commits.close();
            beat.close();
        }
    }

    // ---- nodes and leases: ClusterLeases

    // ---- the shared frontier

    /** A cluster job's seeds, at depth 0. */
    public void admitSeeds(long jobId, List<Link> seeds) {
        ClusterSql.transaction(pool, c -> {
            ClusterSql.update(c, "INSERT INTO cluster_jobs (job_id, admitted) VALUES (?, 0) ON CONFLICT DO NOTHING", jobId);
            List<Link> admitted = new ArrayList<>();
            ClusterLinks.insert(c, jobId, seeds, Integer.MAX_VALUE, admitted);
            return ClusterLinks.addAdmitted(c, jobId, admitted.size());
        });
    }

    /** URLs a job has yet to visit a first time, with the requests made of those tried already. */
    public record Queued(List<Link> links, Map<String, Integer> attempts) {}

    /**
     * Up to {@code limit} URLs of {@code hostKey} a job has yet to visit a first time, shallowest first, but for
     * {@code except}.
     */
    public Queued queued(long jobId, String hostKey, Collection<String> except, int limit) {
        Map<String, Integer> attempts = new HashMap<>();
        List<Link> links = pool.list("SELECT url, depth, redirects, referrer, attempts FROM cluster_frontier"
                + " WHERE host_key = ? AND job_id = ? AND state = 'queued' AND due_at IS NULL AND NOT (url = ANY (?))"
                + " ORDER BY depth LIMIT ?", rs -> {
                    if (rs.getInt(5) > 0) {
                        attempts.put(rs.getString(1), rs.getInt(5));
                    }
                    return new Link(rs.getString(1), hostKey, rs.getInt(2), rs.getInt(3), rs.getString(4));
                }, hostKey, jobId, except.toArray(String[]::new), limit);
        return new Queued(links, attempts);
    }

    /** Job {@code jobId}'s {@code url} has had {@code attempts} requests and waits for another. */
    public void retried(long jobId, String url, int attempts) {
        ClusterSql.update(pool, "UPDATE cluster_frontier SET attempts = ? WHERE job_id = ? AND url = ?", attempts, jobId, url);
    }

    /**
     * The stored URLs of a continuous job, of the hosts {@code hostKeys}, due within {@code withinMillis}: up to
     * {@code perHost} of each host, the soonest (a host with a backlog does not hold back the others).
     */
    public List<Due> due(long jobId, Collection<String> hostKeys, long withinMillis, int perHost) {
        return pool.list("""
                SELECT url, host_key, depth, redirects, referrer, changes, watched_since, interval_ms, due_in, etag,
                  last_modified, digest, simhash, status, moved_to FROM (
                  SELECT f.url, f.host_key, f.depth, f.redirects, f.referrer, f.changes, f.watched_since, f.interval_ms,
                    CAST(EXTRACT(EPOCH FROM (f.due_at - now())) * 1000 AS BIGINT) AS due_in, p.etag, p.last_modified,
                    p.digest, p.simhash, p.status, CASE WHEN p.status BETWEEN 300 AND 399 THEN p.outlinks END AS moved_to,
                    ROW_NUMBER() OVER (PARTITION BY f.host_key ORDER BY f.due_at) AS nth
                  FROM cluster_frontier f LEFT JOIN pages p ON p.job_id = f.job_id AND p.url = f.url
                  WHERE f.host_key = ANY (?) AND f.job_id = ? AND f.state = 'queued'
                    AND f.due_at <= now() + ? * INTERVAL '1 millisecond') AS d
                WHERE nth <= ?""", rs -> {
                    long simhash = rs.getLong(13);
                    Long hash = rs.wasNull() ? null : simhash;
                    Timestamp watched = rs.getTimestamp(7);
                    String target = rs.getString(15);
                    return new Due(new Link(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)),
                            rs.getString(10), rs.getString(11), rs.getString(12), hash, rs.getInt(14),
                            target == null ? null : target.lines().findFirst().orElse(null), rs.getInt(6),
                            watched == null ? null : watched.toInstant(), rs.getLong(8), rs.getLong(9));
                }, hostKeys.toArray(String[]::new), jobId, withinMillis, perHost);
    }

    /**
     * Stores one URL's result, admits its links, and marks the URL done (or, on a continuous job, queued for its
     * next visit), in one transaction with other results of this node ({@link ClusterCommits}), and only while
     * this node still holds the URL's host at {@code epoch}. Waits until it is committed.
     *
     * @param page the URL's row, or null to admit links only (a sitemap's, relative to depth 0)
     * @param visit a continuous job's event, rewrite and schedule; null on a one-pass job
     * @param recorded rows stored with it (links recorded on sight)
     * @return what was stored, or null if the host is no longer ours: nothing was stored, and the new owner
     *     fetches the URL
     */
    public @Nullable Committed commit(String nodeId, String hostKey, long epoch, long jobId, @Nullable PageRecord page,
            @Nullable VisitWrite visit, List<Link> links, List<PageRecord> recorded, int maxDepth, int maxPages) {
        return commits.commit(new ClusterCommits.Commit(nodeId, hostKey, epoch, jobId, page, visit, links, recorded,
                maxDepth, maxPages));
    }

    // ---- jobs

    /** Marks done every running cluster job with nothing left to fetch; returns their ids. */
    public List<Long> finishDone() {
        return beat.list("""
                UPDATE jobs j SET status = 'done', finished_at = now()
                WHERE j.cluster AND j.status = 'running'
                  AND EXISTS (SELECT 1 FROM cluster_jobs c WHERE c.job_id = j.id) -- its seeds are in
                  AND NOT EXISTS (SELECT 1 FROM cluster_frontier f WHERE f.job_id = j.id AND f.state = 'queued')
                RETURNING j.id""", rs -> rs.getLong(1));
    }

    /** A cancelled job's URLs still to fetch are dropped: no node leases its hosts for it any more. */
    public void dropQueued(long jobId) {
        ClusterSql.update(pool, "UPDATE cluster_frontier SET state = 'dropped' WHERE job_id = ? AND state = 'queued'", jobId);
    }

    /**
     * What a node is doing for a job now: its requests so far and in flight. Its stored rows are counted as
     * they are committed ({@link ClusterResults}), not here.
     */
    public void reportWork(long jobId, String nodeId, long fetches, int inFlight) {
        ClusterSql.update(beat, "INSERT INTO cluster_work (job_id, node_id, pages, failed, skipped, fetches, in_flight, updated_at)"
                + " VALUES (?, ?, 0, 0, 0, ?, ?, now()) ON CONFLICT (job_id, node_id) DO UPDATE SET"
                + " fetches = EXCLUDED.fetches, in_flight = EXCLUDED.in_flight, updated_at = now()",
                jobId, nodeId, fetches, inFlight);
    }

    /** Each node's share of a job: rows as committed, requests as last reported. */
    public List<Work> work(long jobId) {
        return pool.list("SELECT node_id, pages, failed, skipped, fetches, in_flight, EXTRACT(EPOCH FROM (now() - updated_at))"
                + " FROM cluster_work WHERE job_id = ? ORDER BY node_id", rs -> new Work(rs.getString(1), rs.getLong(2),
                rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getInt(6), rs.getDouble(7)), jobId);
    }

    /** A job's URLs still to fetch, counted from an index of the queued URLs alone. */
    public Waiting waiting(long jobId) {
        return pool.list("SELECT COUNT(*), COUNT(*) FILTER (WHERE due_at IS NULL OR due_at <= now())"
                + " FROM cluster_frontier WHERE job_id = ? AND state = 'queued'",
                rs -> new Waiting(rs.getLong(1), rs.getLong(2)), jobId).getFirst();
    }
}
