package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A job's change events as stored, read in the order they were stored ({@link Change#id}): what the SSE
 * stream, the webhook and {@code export --changes} read. Events are written with the rows they are about,
 * by the store's writer; a reader sees an event once it is committed.
 */
public final class ChangeFeed {
    private static final String COLUMNS = "id, job_id, url, kind, at, status, distance, severity, target";

    private final Readers readers;
    private final WebhookCursors webhooks;

    ChangeFeed(Readers readers, WebhookCursors webhooks) {
        this.readers = readers;
        this.webhooks = webhooks;
    }

    /** Up to {@code limit} events of job {@code jobId} stored after event {@code afterId} (0: from the first). */
    public List<Change> after(long jobId, long afterId, int limit) {
        return readers.list("SELECT " + COLUMNS + " FROM changes WHERE job_id = ? AND id > ? ORDER BY id"
                + " FETCH FIRST " + Math.max(1, limit) + " ROWS ONLY", ChangeFeed::change, jobId, afterId);
    }

    /** Every event of job {@code jobId}, in order, without holding them all in memory. */
    public void forEach(long jobId, Consumer<Change> sink) {
        readers.stream("SELECT " + COLUMNS + " FROM changes WHERE job_id = ? ORDER BY id",
                rs -> sink.accept(change(rs)), jobId);
    }

    /** The last event job {@code jobId}'s webhook delivered (0: none). */
    public long delivered(long jobId) {
        return webhooks.delivered(jobId);
    }

    /** Where job {@code jobId}'s webhook stands: delivered up to, pending, and why it fails while it does. */
    public WebhookStatus webhook(long jobId) {
        return webhooks.status(jobId);
    }

    /**
     * Takes or keeps the delivery of job {@code jobId}'s webhook for {@code owner} for {@code holdSeconds}: one
     * deliverer per job, even where every node of a cluster runs it.
     *
     * @return the last event delivered (0: none), or -1 while another owner delivers
     */
    public long claimDelivery(long jobId, String owner, int holdSeconds) {
        return webhooks.claim(jobId, owner, holdSeconds);
    }

    /**
     * Records that job {@code jobId}'s webhook delivered every event up to {@code id}, and extends {@code owner}'s
     * hold; durable on return. False when the delivery is no longer {@code owner}'s.
     */
    public boolean delivered(long jobId, String owner, long id, int holdSeconds) {
        return webhooks.delivered(jobId, owner, id, holdSeconds);
    }

    /** Gives up {@code owner}'s hold on job {@code jobId}'s delivery, so another may take it over at once. */
    public void releaseDelivery(long jobId, String owner) {
        webhooks.release(jobId, owner);
    }

    /** Records, as {@code owner}, that job {@code jobId}'s receiver did not take its next event, and why (one line). */
    public void deliveryFailed(long jobId, String owner, String why) {
        webhooks.failed(jobId, owner, why);
    }

    private static Change change(ResultSet rs) throws SQLException {
        int distance = rs.getInt("distance");
        Integer d = rs.wasNull() ? null : distance;
        return new Change(rs.getLong("id"), rs.getLong("job_id"), rs.getString("url"), Change.Kind.of(rs.getString("kind")),
                rs.getTimestamp("at").toInstant(), rs.getInt("status"), d, rs.getString("severity"),
                rs.getString("target"));
    }
}
