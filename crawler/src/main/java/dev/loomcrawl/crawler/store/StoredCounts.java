package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Figures of a whole job from its stored rows: whatever processes ran it, they add up here.
 *
 * @param fetchMillis every fetch time, for latency percentiles (rows fetched at least once)
 */
public record StoredCounts(long pages, long failed, long skipped, long bytes, long retries, Map<String, Long> statuses,
        Map<String, Long> failures, Map<String, Long> skips, List<Double> fetchMillis, List<Double> pageMillis,
        List<StoredCounts.TopFailure> topFailures) {

    /** A failure reason and how many URLs ended with it. */
    public record TopFailure(String kind, String detail, long count) {}

    /** A job's stored rows by outcome, and its failures by kind: one grouped count, not a read of every row. */
    public record Outcomes(long pages, long failed, long skipped, Map<String, Long> failures) {}

    /** The outcomes of job {@code jobId}'s stored rows. */
    static Outcomes outcomes(Readers readers, long jobId) {
        long[] n = new long[3]; // pages, failed, skipped
        Map<String, Long> failures = new TreeMap<>();
        readers.stream("SELECT failure, COUNT(*) FROM pages WHERE job_id = ? GROUP BY failure", rs -> {
            String failure = rs.getString(1);
            Outcome outcome = PageRecord.outcomeOf(failure);
            n[outcome.ordinal()] += rs.getLong(2);
            if (outcome == Outcome.FAILED) {
                failures.put(failure, rs.getLong(2));
            }
        }, jobId);
        return new Outcomes(n[0], n[1], n[2], failures);
    }

    /** The figures of job {@code jobId} from its rows. */
    static StoredCounts read(Readers readers, long jobId) {
        Map<String, Long> statuses = new TreeMap<>();
        Map<String, Long> failures = new TreeMap<>();
        Map<String, Long> skips = new TreeMap<>();
        long[] n = new long[5]; // pages, failed, skipped, bytes, retries
        List<Double> fetch = new ArrayList<>();
        List<Double> page = new ArrayList<>();
        readers.stream("SELECT status, failure, bytes, attempts, fetch_ms, page_ms FROM pages WHERE job_id = ?", rs -> {
            int status = rs.getInt(1);
            String failure = rs.getString(2);
            int attempts = rs.getInt(4);
            if (status > 0) {
                statuses.merge(String.valueOf(status), 1L, Long::sum);
            }
            switch (PageRecord.outcomeOf(failure)) {
                case OK -> n[0]++;
                case FAILED -> { n[1]++; failures.merge(failure, 1L, Long::sum); }
                case SKIPPED -> { n[2]++; skips.merge(failure, 1L, Long::sum); }
            }
            n[3] += rs.getInt(3);
            n[4] += Math.max(0, attempts - 1);
            if (attempts > 0) {
                fetch.add(rs.getDouble(5));
                page.add(rs.getDouble(6));
            }
        }, jobId);
        List<TopFailure> top = readers.query("SELECT failure, detail, COUNT(*) AS n FROM pages WHERE job_id = ? AND"
                + " failure IS NOT NULL AND failure NOT IN ('robots', 'not-html') GROUP BY failure, detail"
                + " ORDER BY n DESC, failure LIMIT 5", rs -> {
                    List<TopFailure> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(new TopFailure(rs.getString(1), rs.getString(2), rs.getLong(3)));
                    }
                    return rows;
                }, jobId);
        return new StoredCounts(n[0], n[1], n[2], n[3], n[4], statuses, failures, skips, fetch, page, top);
    }
}
