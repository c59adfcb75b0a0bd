package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.SafeText;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;

/**
 * How far each job's webhook has delivered, who delivers it, and why its receiver does not take the next event,
 * if it does not ({@code webhook_cursors}, read and written through {@link ChangeFeed}). Every write is committed
 * on return: a process killed after a 2xx sends that event again, never skips one.
 */
final class WebhookCursors {
    private final JobTable jobs;
    private final Readers readers;
    private final Dialect dialect;

    WebhookCursors(JobTable jobs, Readers readers, Dialect dialect) {
        this.jobs = jobs;
        this.readers = readers;
        this.dialect = dialect;
    }

    /**
     * Takes, or keeps, the delivery of job {@code jobId}'s webhook for {@code owner} for {@code holdSeconds} (the
     * database's clock), unless another owner's hold is still running: one deliverer per job, even where every
     * node of a cluster runs the job.
     *
     * @return the last event delivered, or -1 when another owner delivers
     */
    long claim(long jobId, String owner, int holdSeconds) {
        return jobs.withWriter(c -> {
            if (Readers.update(c, "UPDATE webhook_cursors SET owner = ?, owner_until = " + later(holdSeconds) + " WHERE job_id = ?"
                    + " AND (owner IS NULL OR owner = ? OR owner_until < CURRENT_TIMESTAMP)", owner, jobId, owner) == 0) {
                // No row yet, or held by another. Two cluster nodes may insert the row at once: one inserts nothing.
                int inserted = Readers.update(c, "INSERT INTO webhook_cursors (job_id, delivered, owner, owner_until) SELECT ?, 0, ?, "
                        + later(holdSeconds) + " WHERE NOT EXISTS (SELECT 1 FROM webhook_cursors WHERE job_id = ?)"
                        + (dialect == Dialect.POSTGRES ? " ON CONFLICT (job_id) DO NOTHING" : ""), jobId, owner, jobId);
                if (inserted == 0) {
                    return -1L;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT delivered FROM webhook_cursors WHERE job_id = ?")) {
                ps.setLong(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /**
     * Records that job {@code jobId}'s webhook has delivered every event up to {@code id}, so its receiver takes
     * events again, and extends {@code owner}'s hold.
     *
     * @return false when the delivery is no longer {@code owner}'s (another took it over after its hold ran out)
     */
    boolean delivered(long jobId, String owner, long id, int holdSeconds) {
        return jobs.withWriter(c -> Readers.update(c, "UPDATE webhook_cursors SET delivered = GREATEST(delivered, ?),"
                + " failing = NULL, failing_since = NULL, tries = 0, owner_until = " + later(holdSeconds)
                + " WHERE job_id = ? AND owner = ?", id, jobId, owner) > 0);
    }

    /**
     * Records that {@code owner} sent the next event of job {@code jobId} and the receiver did not take it, and why:
     * words the JDK may have quoted from the receiver's answer, NUL and all, kept as {@link SafeText} keeps a row's.
     */
    void failed(long jobId, String owner, String why) {
        String kept = SafeText.text(why.length() > 1000 ? why.substring(0, 1000) : why);
        jobs.withWriter(c -> Readers.update(c, "UPDATE webhook_cursors SET failing = ?, tries = tries + 1,"
                + " failing_since = COALESCE(failing_since, CURRENT_TIMESTAMP) WHERE job_id = ? AND owner = ?",
                kept, jobId, owner));
    }

    /** Ends {@code owner}'s hold on job {@code jobId}'s webhook, so another may take it over at once. */
    void release(long jobId, String owner) {
        jobs.withWriter(c -> Readers.update(c, "UPDATE webhook_cursors SET owner = NULL, owner_until = NULL WHERE job_id = ? AND owner = ?",
                jobId, owner));
    }

    /** The last event delivered (0: none). */
    long delivered(long jobId) {
        return readers.query("SELECT delivered FROM webhook_cursors WHERE job_id = ?",
                rs -> rs.next() ? rs.getLong(1) : 0L, jobId);
    }

    /**
     * Where job {@code jobId}'s webhook stands, as the store has it; the events not yet delivered counted up to
     * {@link WebhookStatus#COUNTED}.
     */
    WebhookStatus status(long jobId) {
        WebhookStatus cursor = readers.query("SELECT delivered, failing, failing_since, tries FROM webhook_cursors"
                + " WHERE job_id = ?", rs -> {
                    if (!rs.next()) {
                        return new WebhookStatus(0, 0, null, null, 0);
                    }
                    Timestamp since = rs.getTimestamp(3);
                    return new WebhookStatus(rs.getLong(1), 0, rs.getString(2), since == null ? null : since.toInstant(),
                            rs.getInt(4));
                }, jobId);
        long pending = readers.query("SELECT COUNT(*) FROM (SELECT 1 FROM changes WHERE job_id = ? AND id > ?"
                + " FETCH FIRST " + WebhookStatus.COUNTED + " ROWS ONLY) AS undelivered", rs -> rs.next() ? rs.getLong(1) : 0L,
                jobId, cursor.delivered());
        return new WebhookStatus(cursor.delivered(), pending, cursor.failing(), cursor.failingSince(), cursor.tries());
    }

    private static String later(int seconds) {
        return "CURRENT_TIMESTAMP + INTERVAL '" + seconds + "' SECOND";
    }
}
