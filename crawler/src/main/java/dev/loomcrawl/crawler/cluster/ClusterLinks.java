package dev.loomcrawl.crawler.cluster;

import static dev.loomcrawl.crawler.cluster.ClusterSql.firstLong;
import static dev.loomcrawl.crawler.cluster.ClusterSql.update;

import dev.loomcrawl.crawler.cluster.ClusterStore.Link;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The links of a cluster job's frontier in SQL, within a commit's transaction: new links admitted (queued
 * within the depth limit, {@code beyond} past it), known ones lowered when a shorter path reaches them (and
 * the links of a stored page lowered in turn), and the job's admitted count for its page limit.
 */
final class ClusterLinks {
    private ClusterLinks() {}

    /** Each URL once, at the least of its depths: two results of a batch may link one URL. */
    static List<Link> shortest(List<Link> links) {
        Map<String, Link> least = new TreeMap<>();
        for (Link l : links) {
            least.merge(l.url(), l, (a, b) -> a.depth() <= b.depth() ? a : b);
        }
        return new ArrayList<>(least.values());
    }

    /**
     * Lowers the depth of known URLs reached by a shorter path, then that of their links in turn: a
     * {@code beyond} URL within the limit now is queued (into {@code admitted}); a stored page's row takes the
     * lower depth and its links are offered one deeper. Rows are locked in URL order (no deadlock among
     * commits doing the same); each round lowers a depth, so it ends.
     */
    static void lower(Connection c, long jobId, List<Link> candidates, int maxDepth, List<Link> admitted)
            throws SQLException {
        List<Closer> round = candidates.stream().map(l -> new Closer(l.url(), l.depth())).toList();
        while (!round.isEmpty()) {
            List<Link> next = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH v AS (SELECT * FROM unnest(?::text[], ?::int[]) AS v (url, depth)),
                    old AS (
                      SELECT f.url, f.state AS was, v.depth FROM cluster_frontier f JOIN v ON f.url = v.url
                      WHERE f.job_id = ? AND f.url = ANY (?::text[]) AND f.depth > v.depth
                        AND f.state IN ('queued', 'beyond', 'done')
                      ORDER BY f.url FOR UPDATE OF f)
                    UPDATE cluster_frontier f SET depth = old.depth,
                      state = CASE WHEN old.was = 'beyond' AND old.depth <= ? THEN 'queued' ELSE f.state END
                    FROM old WHERE f.job_id = ? AND f.url = old.url
                    RETURNING f.url, f.host_key, f.depth, f.redirects, f.referrer, old.was, f.state,
                      f.due_at IS NOT NULL""")) {
                // The URLs twice: as the join's rows, and as an array the primary key's index can look up.
                Array urls = c.createArrayOf("text", round.stream().map(Closer::url).toArray());
                ps.setArray(1, urls);
                ps.setArray(2, c.createArrayOf("int4", round.stream().map(Closer::depth).toArray()));
                ps.setLong(3, jobId);
                ps.setArray(4, urls);
                ps.setInt(5, maxDepth);
                ps.setLong(6, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Link l = new Link(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                        String was = rs.getString(6);
                        if (was.equals("beyond") && rs.getString(7).equals("queued")) {
                            admitted.add(l);
                        } else if (was.equals("done") || rs.getBoolean(8)) { // stored: done, or due again
                            next.add(l);
                        }
                    }
                }
            }
            round = next.isEmpty() ? List.of() : linksOfStored(c, jobId, next);
        }
    }

    /** A URL offered a lower depth. */
    private record Closer(String url, int depth) {}

    /** The links of stored pages whose depth was just lowered, one deeper; their rows take the new depth. */
    private static List<Closer> linksOfStored(Connection c, long jobId, List<Link> pages) throws SQLException {
        List<Closer> links = new ArrayList<>();
        try (PreparedStatement read = c.prepareStatement("SELECT outlinks FROM pages WHERE job_id = ? AND url = ?");
             PreparedStatement lower = c.prepareStatement("UPDATE pages SET depth = ? WHERE job_id = ? AND url = ?"
                     + " AND depth > ?")) {
            for (Link page : pages) {
                lower.setInt(1, page.depth());
                lower.setLong(2, jobId);
                lower.setString(3, page.url());
                lower.setInt(4, page.depth());
                lower.executeUpdate();
                read.setLong(1, jobId);
                read.setString(2, page.url());
                try (ResultSet rs = read.executeQuery()) {
                    String outlinks = rs.next() ? rs.getString(1) : null;
                    if (outlinks != null) {
                        for (String url : outlinks.split("\n")) {
                            links.add(new Closer(url, page.depth() + 1));
                        }
                    }
                }
            }
        }
        return links;
    }

    /**
     * Inserts links not yet in the job's frontier, queued within {@code maxDepth} (into {@code admitted}) or
     * {@code beyond} it, and their hosts; returns the links that were known already. New rows are written in
     * URL order, so two transactions admitting the same new URLs wait on each other in one order only.
     */
    static List<Link> insert(Connection c, long jobId, List<Link> links, int maxDepth, List<Link> admitted)
            throws SQLException {
        if (links.isEmpty()) {
            return List.of();
        }
        int n = links.size();
        String[] urls = new String[n];
        String[] hosts = new String[n];
        Integer[] depths = new Integer[n];
        Integer[] redirects = new Integer[n];
        String[] referrers = new String[n];
        for (int i = 0; i < n; i++) {
            Link l = links.get(i);
            urls[i] = l.url();
            hosts[i] = l.hostKey();
            depths[i] = l.depth();
            redirects[i] = l.redirects();
            referrers[i] = l.referrer();
        }
        Set<String> inserted = new HashSet<>();
        TreeSet<String> newHosts = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO cluster_frontier (job_id, url, host_key, depth, redirects, referrer, state)
                SELECT ?, url, host_key, depth, redirects, referrer,
                  CASE WHEN depth <= ? THEN 'queued' ELSE 'beyond' END FROM (
                  SELECT DISTINCT ON (url) * FROM unnest(?::text[], ?::text[], ?::int[], ?::int[], ?::text[])
                    AS found (url, host_key, depth, redirects, referrer)
                  ORDER BY url, depth) AS links ORDER BY url
                ON CONFLICT (job_id, url) DO NOTHING
                RETURNING url, host_key, depth, redirects, referrer, state""")) {
            ps.setLong(1, jobId);
            ps.setInt(2, maxDepth);
            ps.setArray(3, c.createArrayOf("text", urls));
            ps.setArray(4, c.createArrayOf("text", hosts));
            ps.setArray(5, c.createArrayOf("int4", depths));
            ps.setArray(6, c.createArrayOf("int4", redirects));
            ps.setArray(7, c.createArrayOf("text", referrers));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    inserted.add(rs.getString(1));
                    newHosts.add(rs.getString(2)); // a beyond URL's too: it may be queued later
                    if (rs.getString(6).equals("queued")) {
                        admitted.add(new Link(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)));
                    }
                }
            }
        }
        insertHosts(c, newHosts);
        return links.stream().filter(l -> !inserted.contains(l.url())).toList();
    }

    /**
     * New hosts' lease rows, in host order. Hosts already known are left out before the insert: a conflict on a
     * row a heartbeat is renewing would make this transaction wait for it.
     */
    private static void insertHosts(Connection c, TreeSet<String> hosts) throws SQLException {
        if (!hosts.isEmpty()) {
            update(c, "INSERT INTO cluster_hosts (host_key) SELECT h FROM unnest(?::text[]) AS h WHERE NOT EXISTS"
                    + " (SELECT 1 FROM cluster_hosts k WHERE k.host_key = h) ORDER BY h ON CONFLICT DO NOTHING",
                    c.createArrayOf("text", hosts.toArray()));
        }
    }

    /** Adds {@code n} to the job's admitted count and returns the new count. */
    static long addAdmitted(Connection c, long jobId, int n) throws SQLException {
        return n == 0 ? 0 : firstLong(c, "UPDATE cluster_jobs SET admitted = admitted + ? WHERE job_id = ? RETURNING admitted",
                0, n, jobId);
    }
}
