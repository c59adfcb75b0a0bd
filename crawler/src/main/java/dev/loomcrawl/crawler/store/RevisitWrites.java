package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The statements of a continuous job's writes, run in the {@link GroupWriter}'s transaction: a revisit that
 * found new content rewrites the URL's row (one row per URL, always), and every change event is appended to
 * {@code changes}. A revisit that found no change writes its event alone: the schedule is computed from the
 * events (see {@code revisit.RevisitSchedule}), so the big table is not touched for most revisits.
 */
public final class RevisitWrites {
    static final List<String> CHANGE_COLUMNS = List.of("job_id", "url", "kind", "at", "status", "distance", "severity",
            "target");

    private final Connection connection;
    private final @Nullable PreparedStatement chain;
    /** Prepared on first use: most batches (a one-pass job's, every cluster commit of one) have no revisit. */
    private @Nullable PreparedStatement content;
    private @Nullable PreparedStatement insertChange;
    private int contents;
    private int changes;

    /** @param chain {@link UrlKey#CHAIN_SQL} where pages are keyed by hash, else null */
    public RevisitWrites(Connection connection, @Nullable PreparedStatement chain) {
        this.connection = connection;
        this.chain = chain;
    }

    private static String assignments(List<String> columns) {
        return String.join(", ", columns.stream().map(c -> c + " = ?").toList());
    }

    /** A revisit's new content, in place of the URL's row. */
    public void rewrite(long jobId, String url, PageRecord page) throws SQLException {
        if (content == null) {
            content = connection.prepareStatement("UPDATE pages SET " + assignments(Schema.ANSWER_COLUMNS) + " WHERE job_id = ? AND "
                    + (chain != null ? "url_hash" : "url") + " = ?");
        }
        int i = Rows.bindAnswer(content, 1, page);
        content.setLong(i++, jobId);
        if (chain != null) {
            UrlKey.Slot slot = UrlKey.find(chain, jobId, url);
            content.setLong(i, slot.found() ? slot.key() : -1); // -1: no row (hashes are >= 0)
        } else {
            content.setString(i, url);
        }
        content.addBatch();
        contents++;
    }

    /** An event, appended to the feed. */
    public void change(Change c) throws SQLException {
        if (insertChange == null) {
            insertChange = connection.prepareStatement(Dialect.insert("changes", CHANGE_COLUMNS));
        }
        insertChange.setLong(1, c.jobId());
        insertChange.setString(2, Rows.truncate(c.url(), 4096));
        insertChange.setString(3, c.kind().label());
        insertChange.setTimestamp(4, Timestamp.from(c.at()));
        insertChange.setInt(5, c.status());
        if (c.distance() == null) {
            insertChange.setNull(6, Types.INTEGER);
        } else {
            insertChange.setInt(6, c.distance());
        }
        insertChange.setString(7, c.severity());
        insertChange.setString(8, Rows.truncate(c.target(), 4096));
        insertChange.addBatch();
        changes++;
    }

    /** Runs what was added: rows rewritten first, then the events. */
    public void execute() throws SQLException {
        if (content != null && contents > 0) {
            content.executeBatch();
        }
        if (insertChange != null && changes > 0) {
            insertChange.executeBatch();
        }
        contents = 0;
        changes = 0;
    }
}
