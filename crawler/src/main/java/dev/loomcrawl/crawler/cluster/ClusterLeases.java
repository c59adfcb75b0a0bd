package dev.loomcrawl.crawler.cluster;

import static dev.loomcrawl.crawler.cluster.ClusterSql.bind;
import static dev.loomcrawl.crawler.cluster.ClusterSql.transaction;
import static dev.loomcrawl.crawler.cluster.ClusterSql.update;

import dev.loomcrawl.crawler.store.Readers;
import dev.loomcrawl.crawler.values.ClusterView;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The nodes of a cluster and their leases on hosts ({@code cluster_nodes}, {@code cluster_hosts}: owner, epoch,
 * expiry, a {@code Retry-After} rest handed on, robots.txt kept for the next holder, the hosts' politeness keys).
 * Heartbeat work runs on the heartbeat's own small pool, never waiting for connections busy storing pages.
 */
final class ClusterLeases {
    /** A host lease this node holds: its epoch, and how long it is good for from before the call. */
    public record Hold(String hostKey, long epoch, long validMillis, long restMillis) {}
    /**
     * A host's robots.txt as a node fetched it: {@code url} null when it has none (allow all).
     */
    public record RobotsRow(@Nullable String url, byte @Nullable [] body, @Nullable String contentType) {}
    /** A node as the database sees it. */
    public record NodeRow(String nodeId, String address, Instant startedAt, Instant heartbeatAt, double heartbeatAgeSeconds, long pages,
            int fetching, int hosts) {}

    private final Readers pool;
    private final Readers beat;

    ClusterLeases(Readers pool, Readers beat) {
        this.pool = pool;
        this.beat = beat;
    }

    /** Says this node is alive, with its figures; the first call registers it. */
    public void heartbeat(String nodeId, @Nullable String address, long pages, int fetching) {
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

    /**
     * Ends the open transactions of nodes dead by heartbeat (none for longer than {@code ttl}) that still hold
     * hosts, and those a node's earlier process left open before the node started again; returns how many it
     * ended. A node's page store locks its hosts' lease rows until it commits, which keeps other nodes' {@link
     * #acquire} off them. A node frozen inside it (a VM or GC pause, {@code kill -STOP}, a network cut) would keep
     * its hosts until it woke: PostgreSQL ends a transaction left idle ({@code idle_in_transaction_session_timeout}),
     * but not one in the middle of a batch the client pipelines, which it counts active, waiting on the client. A
     * node's transactions are found by the {@code application_name} its stores carry ({@link #nameTransaction});
     * one ended runs again when its node wakes ({@link ClusterSql#transaction}) and finds its hosts gone.
     *
     * <p>Every node asks at every heartbeat, and reading every session costs the server 0.2 ms, so sessions are
     * read only for such nodes: dead ones with hosts, and those started within a lease (a node's first heartbeat
     * ends what its earlier process left; that process, frozen, opens nothing new).
     */
    public int endDeadNodesTransactions(Duration ttl) {
        return (int) beat.count("""
                WITH node AS (
                  SELECT n.node_id, n.started_at,
                    n.heartbeat_at < now() - ? * interval '1 millisecond'
                      AND EXISTS (SELECT 1 FROM cluster_hosts h WHERE h.owner = n.node_id) AS dead,
                    n.started_at > now() - ? * interval '1 millisecond' AS restarted
                  FROM cluster_nodes n),
                suspect AS MATERIALIZED (SELECT node_id, started_at, dead FROM node WHERE dead OR restarted)
                SELECT COUNT(*) FILTER (WHERE pg_terminate_backend(a.pid)) FROM suspect s
                  CROSS JOIN LATERAL (SELECT pid, xact_start FROM pg_stat_activity
                    WHERE application_name = ? || s.node_id AND datname = current_database()
                      AND xact_start IS NOT NULL AND pid <> pg_backend_pid()) a
                WHERE s.dead OR a.xact_start < s.started_at""", ttl.toMillis(), ttl.toMillis(), NODE_NAME);
    }

    /** Names {@code c}'s transaction after {@code nodeId}, until it ends: {@link #endDeadNodesTransactions} finds it. */
    static void nameTransaction(Connection c, String nodeId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT set_config('application_name', ?, true)")) {
            ps.setString(1, NODE_NAME + nodeId);
            ps.execute();
        }
    }

    /** What a node's transactions are named, before the node's id. */
    private static final String NODE_NAME = "loomcrawl node ";

    /** Hosts with URLs to fetch whose domain key (or, with {@code ip}, address key) is not known yet; at most {@code max}. */
    public List<String> hostsWithoutKeys(boolean ip, int max) {
        return beat.list("SELECT h.host_key FROM cluster_hosts h WHERE (h.domain_key IS NULL OR ? AND h.ip_key IS NULL)"
                + " AND EXISTS (SELECT 1 FROM cluster_frontier f WHERE f.host_key = h.host_key AND f.state = 'queued')"
                + " LIMIT ?", rs -> rs.getString(1), ip, max);
    }

    /**
     * Records hosts' politeness keys: {@code keys} maps a host key to its domain key and address key (null: not
     * known). One statement, not a batch: a node frozen in the middle of a batch it pipelines would hold the rows
     * until it woke ({@link #endDeadNodesTransactions}).
     */
    public void setHostKeys(Map<String, String[]> keys) {
        List<String> hosts = new ArrayList<>();
        List<String> domains = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        keys.forEach((host, key) -> {
            hosts.add(host);
            domains.add(key[0]);
            addresses.add(key[1]);
        });
        update(beat, "UPDATE cluster_hosts h SET domain_key = k.domain_key, ip_key = COALESCE(k.ip_key, h.ip_key)"
                + " FROM unnest(?::text[], ?::text[], ?::text[]) AS k (host_key, domain_key, ip_key)"
                + " WHERE h.host_key = k.host_key", hosts.toArray(String[]::new), domains.toArray(String[]::new),
                addresses.toArray(String[]::new));
    }

    private static final String MILLIS_LEFT = "(EXTRACT(EPOCH FROM (expires_at - now())) * 1000)::BIGINT,"
            + " COALESCE((EXTRACT(EPOCH FROM (rest_until - now())) * 1000)::BIGINT, 0)";

    /** Gives a host back, with the rest its server asked for still to run; does nothing if it is no longer ours. */
    public void release(String nodeId, String hostKey, long epoch, long restMillis) {
        update(beat, "UPDATE cluster_hosts SET owner = NULL, expires_at = NULL,"
                + " rest_until = CASE WHEN ? > 0 THEN now() + ? * interval '1 millisecond' END"
                + " WHERE host_key = ? AND owner = ? AND epoch = ?", restMillis, restMillis, hostKey, nodeId, epoch);
    }

    /**
     * Hosts with URLs still to fetch, in any job. Every node asks at every heartbeat, so the cost must follow the
     * answer, not the frontier's size: the query skips through the queued URLs' index from one host to the next
     * (a loose index scan), one descent per host with work. Counting the queued URLs' distinct hosts reads every
     * queued URL (at a million queued on 10,000 hosts: 268 ms, this 41-67 ms); probing each lease row reads every
     * host ever seen (at a million hosts of which 1,000 have work: 61 ms, this 3.5 ms).
     */
    public int hostsWithWork() {
        return (int) beat.count("""
                WITH RECURSIVE next (host_key) AS (
                  (SELECT host_key FROM cluster_frontier WHERE state = 'queued' ORDER BY host_key LIMIT 1)
                  UNION ALL
                  SELECT (SELECT f.host_key FROM cluster_frontier f WHERE f.state = 'queued' AND f.host_key > n.host_key
                          ORDER BY f.host_key LIMIT 1)
                  FROM next n WHERE n.host_key IS NOT NULL)
                SELECT COUNT(host_key) FROM next""");
    }

    /** Nodes whose last heartbeat is younger than {@code within}. */
    public int liveNodes(Duration within) {
        return (int) beat.count("SELECT COUNT(*) FROM cluster_nodes WHERE heartbeat_at > now() - ? * interval '1 millisecond'",
                within.toMillis());
    }

    /** The fewest hosts any live node holds (0 for a node that holds none, as one that just joined). */
    public int fewestHeld(Duration within) {
        return (int) beat.count("SELECT COALESCE(MIN(held), 0) FROM (SELECT (SELECT COUNT(*) FROM cluster_hosts h"
                + " WHERE h.owner = n.node_id AND h.expires_at > now()) AS held FROM cluster_nodes n"
                + " WHERE n.heartbeat_at > now() - ? * interval '1 millisecond') live", within.toMillis());
    }

    /** Hosts this node holds that have nothing left to fetch in any job. */
    public List<String> idleHolds(String nodeId) {
        return beat.list("SELECT h.host_key FROM cluster_hosts h WHERE h.owner = ? AND NOT EXISTS"
                + " (SELECT 1 FROM cluster_frontier f WHERE f.host_key = h.host_key AND f.state = 'queued')",
                rs -> rs.getString(1), nodeId);
    }

    public List<NodeRow> nodes() {
        return nodes(pool);
    }

    /** The nodes as {@link #nodes()} lists them, read on {@code pool}. */
    static List<NodeRow> nodes(Readers pool) {
        return pool.list("""
                SELECT n.node_id, n.address, n.started_at, n.heartbeat_at, EXTRACT(EPOCH FROM (now() - n.heartbeat_at)),
                  n.pages, n.fetching,
                  (SELECT COUNT(*) FROM cluster_hosts h WHERE h.owner = n.node_id AND h.expires_at > now())
                FROM cluster_nodes n ORDER BY n.node_id""", rs -> new NodeRow(rs.getString(1), rs.getString(2),
                rs.getTimestamp(3).toInstant(), rs.getTimestamp(4).toInstant(), rs.getDouble(5), rs.getLong(6),
                rs.getInt(7), rs.getInt(8)));
    }

    /** Leases held now (not expired), by host. */
    public List<ClusterView.LeaseRow> leaseRows() {
        return pool.list("SELECT host_key, owner, epoch, EXTRACT(EPOCH FROM (expires_at - now())) FROM cluster_hosts"
                + " WHERE owner IS NOT NULL AND expires_at > now() ORDER BY host_key",
                rs -> new ClusterView.LeaseRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getDouble(4)));
    }

    /** Keeps a host's robots.txt for the next node to hold the host (RFC 9309 lets it be reused for a day). */
    public void saveRobots(String hostKey, RobotsRow robots) {
        update(pool, "UPDATE cluster_hosts SET robots_at = now(), robots_url = ?, robots_type = ?, robots_body = ?"
                + " WHERE host_key = ?", robots.url(), robots.contentType(), robots.body(), hostKey);
    }

    /** The host's robots.txt if a node fetched it within the last day, else null. */
    public @Nullable RobotsRow robots(String hostKey) {
        List<RobotsRow> rows = pool.list("SELECT robots_url, robots_body, robots_type FROM cluster_hosts WHERE host_key = ?"
                + " AND robots_at > now() - interval '1 day'", rs -> new RobotsRow(rs.getString(1), rs.getBytes(2),
                rs.getString(3)), hostKey);
        return rows.isEmpty() ? null : rows.getFirst();
    }

    private List<Hold> holds(String sql, Object... args) {
        return beat.list(sql, rs -> new Hold(rs.getString(1), rs.getLong(2), rs.getLong(3), Math.max(0, rs.getLong(4))), args);
    }
}
