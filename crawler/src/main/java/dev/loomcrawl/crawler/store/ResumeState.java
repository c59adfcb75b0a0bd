package dev.loomcrawl.crawler.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a job had admitted and stored when its last process stopped.
 *
 * @param admitted every URL it had admitted, shallowest first
 * @param stored the URLs it stored a result for: done, never fetched again (a continuous job revisits them)
 * @param visits for a job that revisits its pages, each stored URL that was fetched, with what its visits found;
 *     empty otherwise
 * @param attempts requests made of URLs not stored yet (retried after a 429 or a 5xx), by URL
 */
public record ResumeState(List<Admitted> admitted, Set<String> stored, Map<String, VisitHistory> visits,
        Map<String, Integer> attempts) {

    /**
     * What a job had admitted and stored, to resume it. Admissions are a log (see {@link Schema}): a URL's rows
     * fold into one, its first admission's redirects and referrer with the least depth any row gave it. Jobs of
     * earlier versions kept theirs in the frontier table, read alike.
     */
    static ResumeState read(Readers readers, long jobId, boolean withVisits) {
        Map<String, Admitted> byUrl = new LinkedHashMap<>();
        for (String table : List.of("frontier", "admissions")) {
            readers.stream("SELECT url, depth, redirects, referrer FROM " + table + " WHERE job_id = ?", rs -> {
                Admitted row = new Admitted(jobId, rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4));
                byUrl.merge(row.url(), row, ResumeState::fold);
            }, jobId);
        }
        List<Admitted> admitted = new ArrayList<>(byUrl.size());
        for (Admitted a : byUrl.values()) { // a depth fix whose admission is missing: admitted directly
            admitted.add(a.redirects() != Admitted.DEPTH_ONLY ? a : new Admitted(jobId, a.url(), a.depth(), 0, null));
        }
        admitted.sort(Comparator.comparingInt(Admitted::depth)); // shallowest first, as the frontier queues them
        Set<String> stored = new HashSet<>();
        readers.stream("SELECT url FROM pages WHERE job_id = ?", rs -> stored.add(rs.getString(1)), jobId);
        Map<String, VisitHistory> visits = new HashMap<>();
        if (withVisits) {
            Map<String, Object[]> events = new HashMap<>(); // url -> {visits, changes, first, last, ended}
            readers.stream("SELECT url, COUNT(*), SUM(CASE WHEN kind = 'changed' THEN 1 ELSE 0 END), MIN(at), MAX(at),"
                    + " MAX(id) FROM changes WHERE job_id = ? GROUP BY url", rs -> events.put(rs.getString(1),
                            new Object[] {rs.getInt(2), rs.getInt(3), rs.getTimestamp(4).toInstant(),
                                rs.getTimestamp(5).toInstant(), rs.getLong(6)}), jobId);
            Set<Long> ending = new HashSet<>();
            readers.stream("SELECT id FROM changes WHERE job_id = ? AND kind IN ('gone', 'moved')",
                    rs -> ending.add(rs.getLong(1)), jobId);
            readers.stream("SELECT url, etag, last_modified, digest, simhash, fetched_at, status,"
                    + " CASE WHEN status BETWEEN 300 AND 399 THEN outlinks END FROM pages"
                    + " WHERE job_id = ? AND attempts > 0", rs -> {
                        long simhash = rs.getLong(5);
                        Long hash = rs.wasNull() ? null : simhash;
                        Object[] e = events.get(rs.getString(1));
                        String target = rs.getString(8);
                        visits.put(rs.getString(1), new VisitHistory(rs.getString(2), rs.getString(3), rs.getString(4),
                                hash, rs.getInt(7), target == null ? null : target.lines().findFirst().orElse(null),
                                rs.getTimestamp(6).toInstant(), e == null ? 0 : (int) e[0],
                                e == null ? 0 : (int) e[1], e == null ? null : (Instant) e[2],
                                e == null ? null : (Instant) e[3], e != null && ending.contains((long) e[4])));
                    }, jobId);
        }
        Map<String, Integer> attempts = new HashMap<>();
        readers.stream("SELECT url, MAX(attempts) FROM retries WHERE job_id = ? GROUP BY url",
                rs -> attempts.put(rs.getString(1), rs.getInt(2)), jobId);
        attempts.keySet().removeAll(stored);
        return new ResumeState(admitted, stored, visits, attempts);
    }

    /** Two rows of the admissions log for one URL as one: the admission's details, the least depth. */
    private static Admitted fold(Admitted a, Admitted b) {
        Admitted admission = a.redirects() == Admitted.DEPTH_ONLY ? b : a;
        int depth = Math.min(a.depth(), b.depth());
        return depth == admission.depth() ? admission
                : new Admitted(admission.jobId(), admission.url(), depth, admission.redirects(), admission.referrer());
    }
}

