package dev.loomcrawl.crawler.cluster;

import static dev.loomcrawl.crawler.cluster.ClusterSql.update;

import dev.loomcrawl.crawler.cluster.ClusterCommits.Commit;
import dev.loomcrawl.crawler.cluster.ClusterStore.Link;
import dev.loomcrawl.crawler.store.Dialect;
import dev.loomcrawl.crawler.store.RevisitWrites;
import dev.loomcrawl.crawler.store.Rows;
import dev.loomcrawl.crawler.store.Schema;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One job's results of a cluster node's batch in SQL, within the batch's transaction ({@link ClusterCommits}):
 * first visits' rows stored, revisits' rows rewritten, links admitted, depths lowered, URLs marked done or due
 * again, the job's admitted count, a continuous job's change events.
 *
 * <p>Depths are the shortest path, as in one process: a page's depth is read from its row, each link's
 * {@code depth} is relative to it (1, or 0 for a redirect's target), links past {@code maxDepth} are kept as
 * {@code beyond} (not fetched), and a link known at a greater depth is lowered: a {@code beyond} row within
 * the limit now is queued, and a page already stored passes the lower depth on to its links, and so on down.
 */
final class ClusterResults {
    /**
     * What one job's results of a batch stored: the links now queued that were not before (within the page
     * limit), and per commit (by identity) the rows the database took.
     */
    record Stored(List<Link> queued, Map<Commit, List<PageRecord>> rows) {}

    /** A row to store, and the commit it came with. */
    private record Offered(Commit commit, PageRecord row) {}

    /** Rows per insert statement: PostgreSQL takes at most 65,535 parameters, 28 a row. */
    private static final int ROWS_PER_INSERT = 1_000;

    private ClusterResults() {}

    /**
     * One job's results of the batch: rows stored, links admitted, depths lowered, URLs marked done.
     * The holds were checked first ({@link ClusterCommits}), locked to the commit: no node takes a host meanwhile.
     */
    static Stored store(Connection c, List<Commit> results) throws SQLException {
        Commit any = results.getFirst();
        long jobId = any.jobId();
        int maxDepth = any.maxDepth();
        List<Commit> pages = results.stream().filter(r -> r.page() != null)
                .sorted(Comparator.comparing(r -> r.stored().url())).toList();
        Map<String, Integer> depths = depthsOf(c, jobId, pages);
        // One row offered per URL, the first: two pages of a batch may record the same link on sight.
        Map<String, Offered> rows = new LinkedHashMap<>();
        List<Link> links = new ArrayList<>();
        RevisitWrites revisits = new RevisitWrites(c, null);
        List<Change> events = new ArrayList<>();
        for (Commit r : results) {
            r.recorded().forEach(row -> rows.putIfAbsent(row.url(), new Offered(r, row)));
            int depth = r.page() == null ? 0 : depths.getOrDefault(r.page().url(), r.page().depth());
            if (r.revisit()) {
                if (r.visit() instanceof ClusterStore.VisitWrite v && v.rewrite() instanceof PageRecord rewrite) {
                    revisits.rewrite(jobId, r.stored().url(), rewrite); // one row per URL, always
                }
            } else if (r.page() != null) {
                rows.putIfAbsent(r.page().url(), new Offered(r, r.page().withDepth(depth)));
            }
            if (r.visit() != null && r.visit().change() != null) {
                events.add(r.visit().change());
            }
            for (Link l : r.links()) {
                links.add(new Link(l.url(), l.hostKey(), depth + l.depth(), l.redirects(), l.referrer()));
            }
        }
        Map<Commit, List<PageRecord>> stored = insertRows(c, rows.values());
        revisits.execute();
        List<Link> admitted = new ArrayList<>();
        ClusterLinks.lower(c, jobId, ClusterLinks.shortest(ClusterLinks.insert(c, jobId, links, maxDepth, admitted)),
                maxDepth, admitted);
        ClusterLinks.lower(c, jobId, ClusterLinks.shortest(closer(c, jobId, pages, depths)), maxDepth, admitted);
        // Last: the job's admitted count is one row every node updates, locked only until the commit.
        List<Link> queued = withinLimit(c, jobId, admitted, any.maxPages());
        appendEvents(c, jobId, events, revisits);
        countWork(c, jobId, stored);
        return new Stored(queued, stored);
    }

    /**
     * The pages marked visited; for a page a shorter path reached meanwhile, its row takes the new depth, and its
     * links, returned, are offered again at theirs.
     */
    private static List<Link> closer(Connection c, long jobId, List<Commit> pages, Map<String, Integer> depths)
            throws SQLException {
        List<Link> closer = new ArrayList<>();
        for (Map.Entry<String, Integer> done : markVisited(c, jobId, pages).entrySet()) {
            int was = depths.getOrDefault(done.getKey(), done.getValue());
            if (done.getValue() < was) {
                update(c, "UPDATE pages SET depth = ? WHERE job_id = ? AND url = ?", done.getValue(), jobId, done.getKey());
                Commit r = pages.stream().filter(x -> x.stored().url().equals(done.getKey())).findFirst().orElseThrow();
                for (Link l : r.links()) {
                    closer.add(new Link(l.url(), l.hostKey(), done.getValue() + l.depth(), l.redirects(), l.referrer()));
                }
            }
        }
        return closer;
    }

    /** The links admitted, counted on the job; those beyond its page limit dropped again. Returns those kept. */
    private static List<Link> withinLimit(Connection c, long jobId, List<Link> admitted, int maxPages)
            throws SQLException {
        long over = ClusterLinks.addAdmitted(c, jobId, admitted.size()) - maxPages;
        if (over <= 0) {
            return admitted;
        }
        int keep = (int) Math.max(0, admitted.size() - over);
        List<Link> dropped = admitted.subList(keep, admitted.size());
        update(c, "UPDATE cluster_frontier SET state = 'dropped' WHERE job_id = ? AND url = ANY (?)", jobId,
                c.createArrayOf("text", dropped.stream().map(Link::url).toArray()));
        update(c, "UPDATE cluster_jobs SET admitted = ? WHERE job_id = ?", (long) maxPages, jobId);
        return List.copyOf(admitted.subList(0, keep));
    }

    /**
     * Each node's rows, counted with the rows they count, in their transaction: each node's share adds up to the
     * job's rows even when a node is killed between two heartbeats.
     */
    private static void countWork(Connection c, long jobId, Map<Commit, List<PageRecord>> stored) throws SQLException {
        Map<String, long[]> work = new TreeMap<>(); // node -> rows stored by outcome, in node order (locks)
        stored.forEach((commit, rows) -> {
            long[] byOutcome = work.computeIfAbsent(commit.nodeId(), node -> new long[3]);
            rows.forEach(row -> byOutcome[row.outcome().ordinal()]++);
        });
        for (Map.Entry<String, long[]> node : work.entrySet()) {
            long[] n = node.getValue();
            update(c, "INSERT INTO cluster_work (job_id, node_id, pages, failed, skipped, fetches, in_flight, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?, 0, 0, now()) ON CONFLICT (job_id, node_id) DO UPDATE SET"
                    + " pages = cluster_work.pages + EXCLUDED.pages, failed = cluster_work.failed + EXCLUDED.failed,"
                    + " skipped = cluster_work.skipped + EXCLUDED.skipped", jobId, node.getKey(), n[0], n[1], n[2]);
        }
    }

    /**
     * A continuous job's events, appended under the lock of the job's row, held to the commit: every node's
     * events of a job are numbered in the order they are committed, so a reader going by id ({@link ChangeFeed})
     * never passes over an event another node commits later with a smaller id.
     */
    private static void appendEvents(Connection c, long jobId, List<Change> events, RevisitWrites writes)
            throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        ClusterSql.firstLong(c, "SELECT admitted FROM cluster_jobs WHERE job_id = ? FOR UPDATE", 0, jobId);
        for (Change event : events) {
            writes.change(event);
        }
        writes.execute();
    }

    /** The pages' depths in the frontier as they stand, without locking their rows. */
    private static Map<String, Integer> depthsOf(Connection c, long jobId, List<Commit> pages) throws SQLException {
        Map<String, Integer> depths = new HashMap<>();
        if (pages.isEmpty()) {
            return depths;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT url, depth FROM cluster_frontier WHERE job_id = ? AND url = ANY (?)")) {
            ps.setLong(1, jobId);
            ps.setArray(2, c.createArrayOf("text", pages.stream().map(r -> r.stored().url()).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    depths.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return depths;
    }

    /**
     * Marks the pages' URLs done, or on a continuous job queued for their next visit with their schedule, their
     * rows locked in URL order; returns each one's depth in the frontier.
     */
    private static Map<String, Integer> markVisited(Connection c, long jobId, List<Commit> pages) throws SQLException {
        Map<String, Integer> depths = new LinkedHashMap<>();
        if (pages.isEmpty()) {
            return depths;
        }
        int n = pages.size();
        String[] urls = new String[n];
        Long[] dueIn = new Long[n];
        Integer[] changes = new Integer[n];
        Timestamp[] watched = new Timestamp[n];
        Long[] intervals = new Long[n];
        for (int i = 0; i < n; i++) {
            Commit r = pages.get(i);
            ClusterStore.VisitWrite v = r.visit();
            urls[i] = r.stored().url();
            dueIn[i] = v == null ? null : v.dueInMillis();
            changes[i] = v == null ? 0 : v.changes();
            watched[i] = v == null || v.watchedSince() == null ? null : Timestamp.from(v.watchedSince());
            intervals[i] = v == null ? 0L : v.intervalMillis();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                WITH v AS (SELECT * FROM unnest(?::text[], ?::bigint[], ?::int[], ?::timestamptz[], ?::bigint[])
                             AS v (url, due_in, changes, watched, interval_ms)),
                mine AS (SELECT url FROM cluster_frontier WHERE job_id = ? AND url = ANY (?::text[])
                         ORDER BY url FOR UPDATE)
                UPDATE cluster_frontier f SET state = CASE WHEN v.due_in IS NULL THEN 'done' ELSE 'queued' END,
                  due_at = now() + v.due_in * INTERVAL '1 millisecond', changes = v.changes,
                  watched_since = v.watched, interval_ms = v.interval_ms
                FROM mine JOIN v ON v.url = mine.url WHERE f.job_id = ? AND f.url = mine.url
                RETURNING f.url, f.depth""")) {
            Array urlArray = c.createArrayOf("text", urls);
            ps.setArray(1, urlArray);
            ps.setArray(2, c.createArrayOf("int8", dueIn));
            ps.setArray(3, c.createArrayOf("int4", changes));
            ps.setArray(4, c.createArrayOf("timestamptz", watched));
            ps.setArray(5, c.createArrayOf("int8", intervals));
            ps.setLong(6, jobId);
            ps.setArray(7, urlArray);
            ps.setLong(8, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    depths.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return depths;
    }

    /**
     * The rows, in multi-row inserts that give back the URLs they stored; returns the rows the database took,
     * by commit. A URL already stored keeps its row (a link recorded on sight by a page of an earlier batch, or
     * the same URL refused by robots.txt when leased), so the job's figures count each URL once.
     */
    private static Map<Commit, List<PageRecord>> insertRows(Connection c, Collection<Offered> rows)
            throws SQLException {
        Map<Commit, List<PageRecord>> stored = new IdentityHashMap<>();
        List<Offered> all = List.copyOf(rows);
        int columns = Schema.PAGE_COLUMNS.size();
        for (int from = 0; from < all.size(); from += ROWS_PER_INSERT) {
            List<Offered> chunk = all.subList(from, Math.min(all.size(), from + ROWS_PER_INSERT));
            Set<String> taken = new HashSet<>();
            try (PreparedStatement ps = c.prepareStatement(Dialect.POSTGRES.writeOnce("pages", Schema.PAGE_COLUMNS,
                    List.of("job_id", "url"), chunk.size()) + " RETURNING url")) {
                for (int i = 0; i < chunk.size(); i++) {
                    Rows.bindPage(ps, 1 + i * columns, chunk.get(i).row());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        taken.add(rs.getString(1));
                    }
                }
            }
            for (Offered o : chunk) {
                if (taken.contains(o.row().url())) {
                    stored.computeIfAbsent(o.commit(), commit -> new ArrayList<>()).add(o.row());
                }
            }
        }
        return stored;
    }
}
