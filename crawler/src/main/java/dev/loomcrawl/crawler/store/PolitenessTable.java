package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.politeness.HostSetting;
import dev.loomcrawl.crawler.politeness.PolitenessAudit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What politeness keeps in the database: operators' settings per key ({@code host_settings}), durable when
 * set, so a restarted process keeps them; and each job's audit ({@code politeness_audit}), rewritten whole
 * at each checkpoint and at the end of a run. Written through the job writes' thread ({@link JobTable}).
 */
public final class PolitenessTable {
    private final JobTable jobs;
    private final Readers readers;

    PolitenessTable(JobTable jobs, Readers readers) {
        this.jobs = jobs;
        this.readers = readers;
    }

    /** Stores {@code setting} for {@code key}; an empty one removes what was set. Durable on return. */
    public void set(String key, HostSetting setting) {
        jobs.withWriter(c -> {
            int n = update(c.prepareStatement("DELETE FROM host_settings WHERE politeness_key = ?"), key);
            if (setting.empty()) {
                return n;
            }
            return update(c.prepareStatement("INSERT INTO host_settings (politeness_key, max_in_flight, min_delay_ms,"
                    + " paused_until) VALUES (?, ?, ?, ?)"), key, setting.limit(),
                    setting.minDelay() == null ? null : setting.minDelay().toMillis(),
                    setting.pausedUntil() == null ? null : Timestamp.from(setting.pausedUntil()));
        });
    }

    /** Every stored setting, by key; a pause that ran out is left out of it. */
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
                HostSetting s = new HostSetting(max, minDelay, until);
                if (!s.empty()) {
                    all.put(rs.getString(1), s);
                }
            }
            return all;
        });
    }

    /** Replaces job {@code jobId}'s stored audit with {@code figures}. Durable on return. */
    public void saveAudit(long jobId, List<PolitenessAudit.KeyFigures> figures) {
        jobs.withWriter(c -> {
            update(c.prepareStatement("DELETE FROM politeness_audit WHERE job_id = ?"), jobId);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO politeness_audit (job_id, politeness_key,"
                    + " requests, answered, errors, max_in_flight, shortest_gap_ms, crawl_delay_ms, retry_after_windows,"
                    + " retry_after_seconds, requests_in_retry_after, robots_disallowed, requests_disallowed,"
                    + " first_request, last_request) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (PolitenessAudit.KeyFigures f : figures) {
                    Readers.bind(ps, new Object[] {jobId, f.key(), f.requests(), f.answered(), f.errors(),
                            f.maxInFlight(), f.shortestGapMillis(), f.crawlDelayMillis(), f.retryAfterWindows(),
                            f.retryAfterSeconds(), f.requestsInRetryAfter(), f.robotsDisallowed(),
                            f.requestsDisallowed(), at(f.firstRequest()), at(f.lastRequest())});
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return figures.size();
        });
    }

    /** Job {@code jobId}'s stored audit, most requests first. */
    public List<PolitenessAudit.KeyFigures> audit(long jobId) {
        return readers.query("SELECT politeness_key, requests, answered, errors, max_in_flight, shortest_gap_ms,"
                + " crawl_delay_ms, retry_after_windows, retry_after_seconds, requests_in_retry_after, robots_disallowed,"
                + " requests_disallowed, first_request, last_request FROM politeness_audit WHERE job_id = ?"
                + " ORDER BY requests DESC, politeness_key", rs -> {
                    List<PolitenessAudit.KeyFigures> all = new ArrayList<>();
                    while (rs.next()) {
                        all.add(new PolitenessAudit.KeyFigures(rs.getString(1), rs.getLong(2), rs.getLong(3),
                                rs.getLong(4), rs.getInt(5), nullable(rs, 6, rs.getDouble(6)),
                                nullable(rs, 7, rs.getLong(7)), rs.getInt(8), rs.getDouble(9), rs.getLong(10),
                                rs.getLong(11), rs.getLong(12), instant(rs.getTimestamp(13)), instant(rs.getTimestamp(14))));
                    }
                    return all;
                }, jobId);
    }

    private static <T> T nullable(ResultSet rs, int column, T value) throws SQLException {
        return rs.wasNull() ? null : value;
    }

    private static Timestamp at(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static int update(PreparedStatement ps, Object... args) throws SQLException {
        try (ps) {
            Readers.bind(ps, args);
            return ps.executeUpdate();
        }
    }
}
