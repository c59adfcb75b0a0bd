package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyAudit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What politeness keeps in the database: operators' settings per key ({@code host_settings}), durable when
 * set, so a restarted process keeps them; and each job's audit ({@code politeness_audit}), rewritten whole
 * at each checkpoint and at the end of a run. Written through the job writes' thread ({@link JobTable}).
 */
public final class PolitenessTable {
    private static final System.Logger LOG = System.getLogger(PolitenessTable.class.getName());

    private final JobTable jobs;
    private final Readers readers;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    PolitenessTable(JobTable jobs, Readers readers) {
        this.jobs = jobs;
        this.readers = readers;
    }

    /** Stores {@code setting} for {@code key}; an empty one removes what was set. Durable on return. */
    public void set(String key, HostSetting setting) {
        jobs.withWriter(c -> {
            int n = Readers.update(c, "DELETE FROM host_settings WHERE politeness_key = ?", key);
            if (setting.empty()) {
                return n;
            }
            return Readers.update(c, "INSERT INTO host_settings (politeness_key, max_in_flight, min_delay_ms,"
                    + " paused_until) VALUES (?, ?, ?, ?)", key, setting.limit(),
                    setting.minDelay() == null ? null : setting.minDelay().toMillis(),
                    setting.pausedUntil() == null ? null : Timestamp.from(setting.pausedUntil()));
        });
    }

    /**
     * Every stored setting, by key; a pause that ran out is left out of it, and so is a row no process could
     * use (written by an older build, or by hand), said once in one line: the process starts without it.
     */
    public Map<String, HostSetting> settings() {
        return readers.query("SELECT politeness_key, max_in_flight, min_delay_ms, paused_until FROM host_settings", rs -> {
            Map<String, HostSetting> all = new TreeMap<>();
            while (rs.next()) {
                int limit = rs.getInt(2);
                Integer max = rs.wasNull() ? null : limit;
                long delay = rs.getLong(3);
                Duration minDelay = rs.wasNull() ? null : Duration.ofMillis(delay);
                Timestamp paused = rs.getTimestamp(4);
                Instant until = paused == null || paused.toInstant().isBefore(Instant.now()) ? null : paused.toInstant();
                String key = rs.getString(1);
                try {
                    HostSetting s = new HostSetting(max, minDelay, until);
                    if (!s.empty()) {
                        all.put(key, s);
                    }
                } catch (ConfigException e) {
                    unusable(key, e);
                }
            }
            return all;
        });
    }

    private void unusable(String key, ConfigException e) {
        if (reported.add(key + " " + e.getMessage())) {
            LOG.log(System.Logger.Level.WARNING, "the stored setting of politeness key '" + key + "' is ignored: "
                    + e.getMessage() + " (PUT /hosts/" + key + " with {} clears it)");
        }
    }

    /**
     * Writes the figures of {@code share} of job {@code jobId} ("" for a job of one process, a node's id for its
     * share of a cluster job) for the keys given, in place of those stored for them (a checkpoint passes the keys
     * whose figures changed since it last wrote). Durable on return.
     */
    public void saveAudit(long jobId, String share, List<KeyAudit> figures) {
        if (figures.isEmpty()) {
            return;
        }
        jobs.withWriter(c -> {
            int[] updated;
            try (PreparedStatement ps = c.prepareStatement("UPDATE politeness_audit SET "
                    + String.join(" = ?, ", AUDIT_FIGURES) + " = ? WHERE job_id = ? AND share = ? AND politeness_key = ?")) {
                for (KeyAudit f : figures) {
                    Readers.bind(ps, auditRow(jobId, share, f));
                    ps.addBatch();
                }
                updated = ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO politeness_audit (" + String.join(", ", AUDIT_FIGURES)
                    + ", job_id, share, politeness_key) VALUES (" + "?, ".repeat(AUDIT_FIGURES.size()) + "?, ?, ?)")) {
                int inserts = 0;
                for (int i = 0; i < figures.size(); i++) {
                    if (updated[i] == 0) { // a key new to the store
                        Readers.bind(ps, auditRow(jobId, share, figures.get(i)));
                        ps.addBatch();
                        inserts++;
                    }
                }
                if (inserts > 0) {
                    ps.executeBatch();
                }
            }
            return figures.size();
        });
    }

    /** A key's figures as the audit's columns hold them, in {@link #AUDIT_FIGURES}' order. */
    private static final List<String> AUDIT_FIGURES = List.of("requests", "answered", "errors", "max_in_flight",
            "shortest_gap_ms", "crawl_delay_ms", "retry_after_windows", "retry_after_seconds", "requests_in_retry_after",
            "robots_disallowed", "requests_disallowed", "first_request", "last_request");

    /** The values of {@link #AUDIT_FIGURES}, then the row's key: job, share and politeness key. */
    private static Object[] auditRow(long jobId, String share, KeyAudit f) {
        return new Object[] {f.requests(), f.answered(), f.errors(), f.maxInFlight(), f.shortestGapMillis(),
            f.crawlDelayMillis(), f.retryAfterWindows(), f.retryAfterSeconds(), f.requestsInRetryAfter(),
            f.robotsDisallowed(), f.requestsDisallowed(), at(f.firstRequest()), at(f.lastRequest()), jobId, share, f.key()};
    }

    /**
     * Job {@code jobId}'s stored audit, most requests first: its shares added up per key (the most in flight and
     * the shortest gap are the largest and smallest any share saw; on a cluster a key's hosts are held by one
     * node at a time, so its requests are in flight on one node at a time).
     */
    public List<KeyAudit> audit(long jobId) {
        return audit("SELECT politeness_key, SUM(requests), SUM(answered), SUM(errors), MAX(max_in_flight),"
                + " MIN(shortest_gap_ms), MAX(crawl_delay_ms), SUM(retry_after_windows), SUM(retry_after_seconds),"
                + " SUM(requests_in_retry_after), SUM(robots_disallowed), SUM(requests_disallowed), MIN(first_request),"
                + " MAX(last_request) FROM politeness_audit WHERE job_id = ? GROUP BY politeness_key"
                + " ORDER BY 2 DESC, politeness_key", jobId);
    }

    /** What {@code share} of job {@code jobId} stored, to go on from. */
    public List<KeyAudit> audit(long jobId, String share) {
        return audit("SELECT politeness_key, requests, answered, errors, max_in_flight, shortest_gap_ms, crawl_delay_ms,"
                + " retry_after_windows, retry_after_seconds, requests_in_retry_after, robots_disallowed,"
                + " requests_disallowed, first_request, last_request FROM politeness_audit WHERE job_id = ? AND share = ?",
                jobId, share);
    }

    private List<KeyAudit> audit(String sql, Object... args) {
        return readers.query(sql, rs -> {
            List<KeyAudit> all = new ArrayList<>();
            while (rs.next()) {
                all.add(new KeyAudit(rs.getString(1), rs.getLong(2), rs.getLong(3),
                        rs.getLong(4), rs.getInt(5), nullable(rs, rs.getDouble(6)),
                        nullable(rs, rs.getLong(7)), rs.getInt(8), rs.getDouble(9), rs.getLong(10),
                        rs.getLong(11), rs.getLong(12), instant(rs.getTimestamp(13)), instant(rs.getTimestamp(14))));
            }
            return all;
        }, args);
    }

    private static <T> @Nullable T nullable(ResultSet rs, T value) throws SQLException {
        return rs.wasNull() ? null : value;
    }

    private static @Nullable Timestamp at(@Nullable Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    private static @Nullable Instant instant(@Nullable Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
