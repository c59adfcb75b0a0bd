package dev.loomcrawl.crawler.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The SQL by which nodes of a cluster share crawl jobs through one PostgreSQL database: the shared frontier
 * ({@code cluster_frontier}, one row per URL of a job, {@code queued} until its result is stored), one lease
 * per host ({@code cluster_hosts}: owner, epoch, expiry), and the nodes with their heartbeats.
 *
 * <p>Every time is the database's ({@code now()}): nodes' clocks may disagree, the database's is one. A
 * lease's time left is handed back as a duration, which a node counts down on its own monotonic clock from
 * before it asked: it never believes in more time than the database gave.
 */
public final class ClusterStore {
    /** A host lease this node holds: its epoch, and how long it is good for from before the call. */
    public record Hold(String hostKey, long epoch, long validMillis, long restMillis) {}

    /**
     * A host's robots.txt as a node fetched it: {@code url} null when it has none (allow all).
     */
    public record RobotsRow(String url, byte[] body, String contentType) {}

    /** A URL for the shared frontier. */
    public record Link(String url, String hostKey, int depth, int redirects, String referrer) {}

    /** A node as the database sees it. */
    public record NodeRow(String nodeId, String address, Instant startedAt, Instant heartbeatAt, double heartbeatAgeSeconds, long pages,
            int fetching, int hosts) {}

    /** A host lease as the database sees it. */
    public record LeaseRow(String hostKey, String owner, long epoch, double expiresInSeconds) {}

    /** What one node did for one job, as it last reported. */
    public record Work(String nodeId, long pages, long failed, long skipped, long fetches, int inFlight,
            double ageSeconds) {}

    /** A job's stored rows by outcome, and URLs still to fetch. */
    public record Counts(long pages, long failed, long skipped, long queued) {}

    /** The store's pool, shared with its reads. */
    private final Readers pool;
    /** The heartbeat's own small pool: renewing leases must not wait for connections busy storing pages. */
    private final Readers beat;

    private final ClusterCommits commits;

    ClusterStore(Readers pool, Readers beat) {
        this.pool = pool;
        this.beat = beat;
        this.commits = new ClusterCommits(pool);
    }

    void close() {
        commits.close();
        beat.close();
    }

    // ---- nodes and leases

    /** Says this node is alive, with its figures; the first call registers it. */
    public void heartbeat(String nodeId, String address, long pages, int fetching) {
        update(beat, "INSERT INTO cluster_nodes (node_id, address, started_at, heartbeat_at, pages, fetching)"
                + " VALUES (?, ?, now(), now(), ?, ?) ON CONFLICT (node_id) DO UPDATE SET address = EXCLUDED.address,"
                + " heartbeat_at = now(), pages = EXCLUDED.pages, fetching = EXCLUDED.fetching",
                nodeId, address, pages, fetching);
    }

    /** A node starting afresh: leases a process of the same name held are void (their epochs end here). */
    public void restart(String nodeId) {
        update(beat, "UPDATE cluster_hosts SET owner = NULL, expires_at = NULL WHERE owner = ?", nodeId);
        update(beat, "UPDATE cluster_nodes SET started_at = now(), heartbeat_at = now() WHERE node_id = ?", nodeId);
    }

    /**
     * Extends every lease this node holds by {@code ttl} from now and returns them: a lease missing from
     * the answer is no longer this node's.
     */
    public List<Hold> renew(String nodeId, Duration ttl) {
        return holds("UPDATE cluster_hosts SET expires_at = now() + ? * interval '1 millisecond' WHERE owner = ?"
                + " RETURNING host_key, epoch, " + MILLIS_LEFT, ttl.toMillis(), nodeId);
    }

    /**
     * Takes up to {@code max} hosts that have URLs to fetch and no live owner (never leased, released, or
     * whose owner let the lease expire), each with a new epoch. Rows another node is taking at the same
     * moment are skipped, not waited for.
     */
    public List<Hold> acquire(String nodeId, int max, Duration ttl) {
        return acquire(nodeId, max, ttl, false, false);
    }

    /**
     * As {@link #acquire(String, int, Duration)}; with {@code byDomain} or {@code byIp} (a cluster job limits by
     * that key) a host is taken only once its key is known and no other live node holds a host of the same key,
     * and nodes take hosts one at a time (an advisory lock), so two never take two names of one key.
     */
    public List<Hold> acquire(String nodeId, int max, Duration ttl, boolean byDomain, boolean byIp) {
        if (max <= 0) {
            return List.of();
        }
        String sql = """
                WITH free AS (
                  SELECT h.host_key FROM cluster_hosts h
                  WHERE (h.owner IS NULL OR h.expires_at < now())
                    AND EXISTS (SELECT 1 FROM cluster_frontier f WHERE f.host_key = h.host_key AND f.state = 'queued')
                    AND (NOT ? OR h.domain_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cluster_hosts o
                      WHERE o.domain_key = h.domain_key AND o.owner <> ? AND o.expires_at > now()))
                    AND (NOT ? OR h.ip_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cluster_hosts o
                      WHERE o.ip_key = h.ip_key AND o.owner <> ? AND o.expires_at > now()))
                  LIMIT ? FOR UPDATE SKIP LOCKED)
                UPDATE cluster_hosts h SET owner = ?, epoch = h.epoch + 1,
                  expires_at = now() + ? * interval '1 millisecond'
                FROM free WHERE h.host_key = free.host_key
                RETURNING h.host_key, h.epoch,\s""" + MILLIS_LEFT;
        Object[] args = {byDomain, nodeId, byIp, nodeId, max, nodeId, ttl.toMillis()};
        if (!byDomain && !byIp) {
            return holds(sql, args);
        }
        return transaction(beat, c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, KEYED_ACQUIRE);
                lock.execute(); // held until this transaction ends
            }
            List<Hold> taken = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, args);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        taken.add(new Hold(rs.getString(1), rs.getLong(2), rs.getLong(3), Math.max(0, rs.getLong(4))));
                    }
                }
            }
            return taken;
        });
    }

    /** The advisory lock under which nodes take hosts one at a time while a domain or ip key is in force. */
    private static final long KEYED_ACQUIRE = 0x6c6f6f6d6b657973L;

    /** Hosts with URLs to fetch whose domain key (or, with {@code ip}, address key) is not known yet; at most {@code max}. */
    public List<String> hostsWithoutKeys(boolean ip, int max) {
        return beat.list("SELECT h.host_key FROM cluster_hosts h WHERE (h.domain_key IS NULL OR ? AND h.ip_key IS NULL)"
                + " AND EXISTS (SELECT 1 FROM cluster_frontier f WHERE f.host_key = h.host_key AND f.state = 'queued')"
                + " LIMIT ?", rs -> rs.getString(1), ip, max);
    }

    /** Records hosts' politeness keys: {@code keys} maps a host key to its domain key and address key (null: not known). */
    public void setHostKeys(Map<String, String[]> keys) {
        transaction(beat, c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE cluster_hosts SET domain_key = ?,"
                    + " ip_key = COALESCE(?, ip_key) WHERE host_key = ?")) {
                for (var e : keys.entrySet()) {
                    bind(ps, e.getValue()[0], e.getValue()[1], e.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return Boolean.TRUE;
        });
    }

    private static final String MILLIS_LEFT = "(EXTRACT(EPOCH FROM (expires_at - now())) * 1000)::BIGINT,"
            + " COALESCE((EXTRACT(EPOCH FROM (rest_until - now())) * 1000)::BIGINT, 0)";

    /** Gives a host back, with the rest its server asked for still to run; does nothing if it is no longer ours. */
    public void release(String nodeId, String hostKey, long epoch, long restMillis) {
        update(beat, "UPDATE cluster_hosts SET owner = NULL, expires_at = NULL,"
                + " rest_until = CASE WHEN ? > 0 THEN now() + ? * interval '1 millisecond' END"
                + " WHERE host_key = ? AND owner = ? AND epoch = ?", restMillis, restMillis, hostKey, nodeId, epoch);
    }

    /** Hosts with URLs still to fetch, in any job. */
    public int hostsWithWork() {
        return (int) beat.count("SELECT COUNT(DISTINCT host_key) FROM cluster_frontier WHERE state = 'queued'");
    }

    /** Nodes whose last heartbeat is younger than {@code within}. */
    public int liveNodes(Duration within) {
        return (int) beat.count("SELECT COUNT(*) FROM cluster_nodes WHERE heartbeat_at > now() - ? * interval '1 millisecond'",
                within.toMillis());
    }

    /** Hosts this node holds that have nothing left to fetch in any job. */
    public List<String> idleHolds(String nodeId) {
        return beat.list("SELECT h.host_key FROM cluster_hosts h WHERE h.owner = ? AND NOT EXISTS"
                + " (SELECT 1 FROM cluster_frontier f WHERE f.host_key = h.host_key AND f.state = 'queued')",
                rs -> rs.getString(1), nodeId);
    }

    public List<NodeRow> nodes() {
        return pool.list("""
                SELECT n.node_id, n.address, n.started_at, n.heartbeat_at, EXTRACT(EPOCH FROM (now() - n.heartbeat_at)),
                  n.pages, n.fetching,
                  (SELECT COUNT(*) FROM cluster_hosts h WHERE h.owner = n.node_id AND h.expires_at > now())
                FROM cluster_nodes n ORDER BY n.node_id""", rs -> new NodeRow(rs.getString(1), rs.getString(2),
                rs.getTimestamp(3).toInstant(), rs.getTimestamp(4).toInstant(), rs.getDouble(5), rs.getLong(6),
                rs.getInt(7), rs.getInt(8)));
    }

    /** Leases held now (not expired), by host. */
    public List<LeaseRow> leases() {
        return pool.list("SELECT host_key, owner, epoch, EXTRACT(EPOCH FROM (expires_at - now())) FROM cluster_hosts"
                + " WHERE owner IS NOT NULL AND expires_at > now() ORDER BY host_key",
                rs -> new LeaseRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getDouble(4)));
    }

    /** Keeps a host's robots.txt for the next node to hold the host (RFC 9309 lets it be reused for a day). */
    public void saveRobots(String hostKey, RobotsRow robots) {
        update(pool, "UPDATE cluster_hosts SET robots_at = now(), robots_url = ?, robots_type = ?, robots_body = ?"
                + " WHERE host_key = ?", robots.url(), robots.contentType(), robots.body(), hostKey);
    }

    /** The host's robots.txt if a node fetched it within the last day, else null. */
    public RobotsRow robots(String hostKey) {
        List<RobotsRow> rows = pool.list("SELECT robots_url, robots_body, robots_type FROM cluster_hosts WHERE host_key = ?"
                + " AND robots_at > now() - interval '1 day'", rs -> new RobotsRow(rs.getString(1), rs.getBytes(2),
                rs.getString(3)), hostKey);
        return rows.isEmpty() ? null : rows.getFirst();
    }

    // ---- the shared frontier

    /** A cluster job's seeds, at depth 0. */
    public void admitSeeds(long jobId, List<Link> seeds) {
        transaction(pool, c -> {
            update(c, "INSERT INTO cluster_jobs (job_id, admitted) VALUES (?, 0) ON CONFLICT DO NOTHING", jobId);
            List<Link> admitted = new ArrayList<>();
            ClusterLinks.insert(c, jobId, seeds, Integer.MAX_VALUE, admitted);
            return ClusterLinks.addAdmitted(c, jobId, admitted.size());
        });
    }

    /** Up to {@code limit} URLs of {@code hostKey} still to fetch in a job, shallowest first, but for {@code except}. */
    public List<Link> queued(long jobId, String hostKey, Collection<String> except, int limit) {
        return pool.list("SELECT url, depth, redirects, referrer FROM cluster_frontier WHERE host_key = ? AND job_id = ?"
                + " AND state = 'queued' AND NOT (url = ANY (?)) ORDER BY depth LIMIT ?",
                rs -> new Link(rs.getString(1), hostKey, rs.getInt(2), rs.getInt(3), rs.getString(4)),
                hostKey, jobId, except.toArray(String[]::new), limit);
    }

    /**
     * Stores one URL's result, admits its links, and marks the URL done, in one transaction with other
     * results of this node ({@link ClusterCommits}), and only while this node still holds the URL's host at
     * {@code epoch}. Waits until it is committed.
     *
     * @param page the URL's row, or null to admit links only (a sitemap's, relative to depth 0)
     * @param recorded rows stored with it (links recorded on sight)
     * @return the links now queued that were not before, or null if the host is no longer ours: nothing was
     *     stored, and the new owner fetches the URL
     */
    public List<Link> commit(String nodeId, String hostKey, long epoch, long jobId, PageRecord page, List<Link> links,
            List<PageRecord> recorded, int maxDepth, int maxPages) {
        return commits.commit(new ClusterCommits.Commit(nodeId, hostKey, epoch, jobId, page, links, recorded, maxDepth,
                maxPages));
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
        update(pool, "UPDATE cluster_frontier SET state = 'dropped' WHERE job_id = ? AND state = 'queued'", jobId);
    }

    /** What this node did for a job so far. */
    public void reportWork(long jobId, String nodeId, long pages, long failed, long skipped, long fetches, int inFlight) {
        update(beat, "INSERT INTO cluster_work (job_id, node_id, pages, failed, skipped, fetches, in_flight, updated_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, now()) ON CONFLICT (job_id, node_id) DO UPDATE SET pages = EXCLUDED.pages,"
                + " failed = EXCLUDED.failed, skipped = EXCLUDED.skipped, fetches = EXCLUDED.fetches,"
                + " in_flight = EXCLUDED.in_flight, updated_at = now()",
                jobId, nodeId, pages, failed, skipped, fetches, inFlight);
    }

    /** Each node's share of a job, as last reported. */
    public List<Work> work(long jobId) {
        return pool.list("SELECT node_id, pages, failed, skipped, fetches, in_flight, EXTRACT(EPOCH FROM (now() - updated_at))"
                + " FROM cluster_work WHERE job_id = ? ORDER BY node_id", rs -> new Work(rs.getString(1), rs.getLong(2),
                rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getInt(6), rs.getDouble(7)), jobId);
    }

    /** A job's stored rows by outcome and its URLs still to fetch, summed over every node. */
    public Counts counts(long jobId) {
        long[] n = new long[3]; // pages, failed, skipped
        pool.list("SELECT failure, COUNT(*) FROM pages WHERE job_id = ? GROUP BY failure", rs -> {
            switch (PageRecord.outcomeOf(rs.getString(1))) {
                case OK -> n[0] += rs.getLong(2);
                case FAILED -> n[1] += rs.getLong(2);
                case SKIPPED -> n[2] += rs.getLong(2);
            }
            return null;
        }, jobId);
        return new Counts(n[0], n[1], n[2],
                pool.count("SELECT COUNT(*) FROM cluster_frontier WHERE job_id = ? AND state = 'queued'", jobId));
    }

    // ---- plumbing (reads go through Readers; writes retry a broken deadlock here)

    private static final String DEADLOCK = "40P01";

    interface InTransaction<T> {
        T run(Connection c) throws SQLException;
    }

    private List<Hold> holds(String sql, Object... args) {
        return beat.list(sql, rs -> new Hold(rs.getString(1), rs.getLong(2), rs.getLong(3), Math.max(0, rs.getLong(4))), args);
    }

    /**
     * Runs {@code work} in one transaction on a connection of {@code from}, committed unless it returns null.
     * PostgreSQL breaks a deadlock by failing one side; the transaction is whole or nothing, so it runs
     * again, up to three times in all.
     */
    static <T> T transaction(Readers from, InTransaction<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return from.withConnection(c -> {
                    c.setAutoCommit(false);
                    try {
                        T result = work.run(c);
                        if (result == null) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                        return result;
                    } catch (SQLException e) {
                        c.rollback();
                        throw e;
                    }
                });
            } catch (SQLException e) {
                if (attempt < 3 && DEADLOCK.equals(e.getSQLState())) {
                    continue;
                }
                throw new StoreException("cluster storage failed: " + e.getMessage(), e);
            }
        }
    }

    private static void update(Readers from, String sql, Object... args) {
        transaction(from, c -> {
            update(c, sql, args);
            return Boolean.TRUE;
        });
    }

    /** The first column of the first row as a long, or {@code otherwise} when there is no row. */
    static long firstLong(Connection c, String sql, long otherwise, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : otherwise;
            }
        }
    }

    static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            ps.executeUpdate();
        }
    }

    static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Array a) {
                ps.setArray(i + 1, a);
            } else {
                ps.setObject(i + 1, args[i]);
            }
        }
    }

}
