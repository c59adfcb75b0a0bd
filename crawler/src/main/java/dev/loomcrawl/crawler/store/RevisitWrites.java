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
    /** Columns a revisit rewrites: the row's content, then its schedule. */
    private static final List<String> CONTENT = List.of("status", "content_type", "title", "bytes", "fetch_ms",
            "attempts", "failure", "detail", "fetched_at", "thread", "outlinks", "fields", "canonical", "body",
            "page_ms", "etag", "last_modified", "digest", "simhash", "content", "lang", "description", "author", "published",
            "noindex");
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
            content = connection.prepareStatement("UPDATE pages SET " + assignments(CONTENT) + " WHERE job_id = ? AND "
                    + (chain != null ? "url_hash" : "url") + " = ?");
        }
        int i = bindContent(content, page);
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

    private static int bindContent(PreparedStatement ps, PageRecord p) throws SQLException {
        ps.setInt(1, p.status());
        ps.setString(2, p.contentType());
        ps.setString(3, p.title());
        ps.setInt(4, p.bytes());
        ps.setDouble(5, p.fetchMillis());
        ps.setInt(6, p.attempts());
        ps.setString(7, p.failure());
        ps.setString(8, p.detail());
        ps.setTimestamp(9, Timestamp.from(p.fetchedAt()));
        ps.setString(10, p.thread());
        ps.setString(11, p.outlinks().isEmpty() ? null : String.join("\n", p.outlinks()));
        ps.setString(12, p.fields().isEmpty() ? null : Rows.json(p.fields()));
        ps.setString(13, p.canonical());
        if (p.body() == null) {
            ps.setNull(14, Types.BINARY);
        } else {
            ps.setBytes(14, p.body());
        }
        ps.setDouble(15, p.pageMillis());
        ps.setString(16, p.etag());
        ps.setString(17, p.lastModified());
        ps.setString(18, p.digest());
        if (p.simhash() == null) {
            ps.setNull(19, Types.BIGINT);
        } else {
            ps.setLong(19, p.simhash());
        }
        Rows.bindContent(ps, 20, p.content());
        ps.setBoolean(25, p.noindex());
        return 26;
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
