package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of one batch of the {@link GroupWriter}, in one transaction: admitted links before pages, a
 * continuous job's rewritten rows and events after the rows they are about, depth fixes last, so a page is
 * never stored without its links and a fix never comes before the row it fixes. Prepared once, on the
 * writer's connection, and used by the writer's thread alone.
 */
final class BatchWrites {
    /** The standard SQLSTATE of a unique constraint violated. */
    private static final String DUPLICATE_KEY = "23505";
    private static final List<String> HASHED_PAGE_COLUMNS = Stream.concat(Schema.PAGE_COLUMNS.stream(),
            Stream.of("url_hash")).toList();

    private final PreparedStatement insertAdmitted;
    private final PreparedStatement insertPage;
    /** Whether pages are keyed by a hash of the URL ({@link UrlKey}) rather than by the URL. */
    private final boolean hashKey;
    /** {@link UrlKey#CHAIN_SQL} where pages are keyed by hash, else null. */
    private final @Nullable PreparedStatement chain;
    private final PreparedStatement lowerPageDepth;
    private final PreparedStatement lowerAdmittedDepth;
    private final RevisitWrites revisits;
    private final PreparedStatement insertRetry;

    BatchWrites(Connection connection, Dialect dialect, boolean hashKey) throws SQLException {
        this.insertAdmitted = connection.prepareStatement(Dialect.insert("admissions", Schema.ADMITTED_COLUMNS));
        this.hashKey = hashKey;
        this.insertPage = connection.prepareStatement(hashKey ? Dialect.insert("pages", HASHED_PAGE_COLUMNS)
                : dialect.writeOnce("pages", Schema.PAGE_COLUMNS, List.of("job_id", "url")));
        this.chain = hashKey ? connection.prepareStatement(UrlKey.CHAIN_SQL) : null;
        this.lowerPageDepth = connection.prepareStatement("UPDATE pages SET depth = ? WHERE job_id = ? AND "
                + (hashKey ? "url_hash" : "url") + " = ? AND depth > ?");
        this.lowerAdmittedDepth = connection.prepareStatement(
                "INSERT INTO admissions (job_id, url, depth, redirects) VALUES (?, ?, ?, " + Admitted.DEPTH_ONLY + ")");
        this.revisits = new RevisitWrites(connection, chain);
        this.insertRetry = connection.prepareStatement("INSERT INTO retries (job_id, url, attempts) VALUES (?, ?, ?)");
    }

    /**
     * Runs one batch's statements; the caller commits, or rolls back on a failure. Admitted links before pages,
     * depth fixes after them: all in one transaction, so a page is never stored without its links, and a fix
     * never comes before the row it fixes.
     */
    void write(List<GroupWriter.Write> batch) throws SQLException {
        admitted(batch);
        pages(batch);
        revisits(batch);
        depths(batch);
        retries(batch);
    }

    private void admitted(List<GroupWriter.Write> batch) throws SQLException {
        for (GroupWriter.Write write : batch) {
            List<Admitted> admitted = switch (write) {
                case GroupWriter.Write.Result result -> result.admitted();
                case GroupWriter.Write.Revisit revisit -> revisit.admitted();
                default -> List.of();
            };
            for (Admitted a : admitted) {
                Rows.bindAdmitted(insertAdmitted, a);
                insertAdmitted.addBatch();
            }
        }
        insertAdmitted.executeBatch();
    }

    private void pages(List<GroupWriter.Write> batch) throws SQLException {
        List<PageRecord> pages = new ArrayList<>();
        for (GroupWriter.Write write : batch) {
            List<PageRecord> rows = switch (write) {
                case GroupWriter.Write.Result result -> result.pages();
                case GroupWriter.Write.Revisit revisit -> revisit.recorded();
                default -> List.of();
            };
            for (PageRecord page : rows) {
                bindPage(page, hashKey ? UrlKey.hash(page.url()) : 0);
                insertPage.addBatch();
                pages.add(page);
            }
        }
        if (!pages.isEmpty()) {
            writeOnce(pages);
        }
    }

    /** A continuous job's revisits and events, after the rows they are about. */
    private void revisits(List<GroupWriter.Write> batch) throws SQLException {
        for (GroupWriter.Write write : batch) {
            switch (write) {
                case GroupWriter.Write.Result result -> {
                    for (Change change : result.changes()) {
                        revisits.change(change);
                    }
                }
                case GroupWriter.Write.Revisit revisit -> {
                    if (revisit.page() != null) {
                        revisits.rewrite(revisit.jobId(), revisit.url(), revisit.page());
                    }
                    if (revisit.change() != null) {
                        revisits.change(revisit.change());
                    }
                }
                default -> { }
            }
        }
        revisits.execute();
    }

    private void depths(List<GroupWriter.Write> batch) throws SQLException {
        int depths = 0;
        for (GroupWriter.Write write : batch) {
            if (write instanceof GroupWriter.Write.Depth fix) {
                lowerPageDepth.setInt(1, fix.depth());
                lowerPageDepth.setLong(2, fix.jobId());
                if (hashKey) {
                    UrlKey.Slot slot = UrlKey.find(chain(), fix.jobId(), fix.url());
                    lowerPageDepth.setLong(3, slot.found() ? slot.key() : -1); // -1: no row (hashes are >= 0)
                } else {
                    lowerPageDepth.setString(3, fix.url());
                }
                lowerPageDepth.setInt(4, fix.depth());
                lowerPageDepth.addBatch();
                lowerAdmittedDepth.setLong(1, fix.jobId());
                lowerAdmittedDepth.setString(2, fix.url());
                lowerAdmittedDepth.setInt(3, fix.depth());
                lowerAdmittedDepth.addBatch();
                depths++;
            }
        }
        if (depths > 0) {
            lowerPageDepth.executeBatch();
            lowerAdmittedDepth.executeBatch();
        }
    }

    private void retries(List<GroupWriter.Write> batch) throws SQLException {
        int retries = 0;
        for (GroupWriter.Write write : batch) {
            if (write instanceof GroupWriter.Write.Retry retry) {
                insertRetry.setLong(1, retry.jobId());
                insertRetry.setString(2, retry.url());
                insertRetry.setInt(3, retry.attempts());
                insertRetry.addBatch();
                retries++;
            }
        }
        if (retries > 0) {
            insertRetry.executeBatch();
        }
    }

    /**
     * Runs the batch of {@code pages} bound to {@code insertPage}, each written once per URL, the row stored
     * first staying (as {@code ON CONFLICT DO NOTHING} has it on PostgreSQL). On H2 a row whose key is there
     * already fails alone (the batch's other rows are written, the failures reported together at the end).
     * Keyed by URL, such a row is a repeat and is passed over. Keyed by the URL's hash, it may be another URL
     * with the same hash: each is looked up along its chain ({@link UrlKey}), in the batch's order, and stored
     * at the chain's first free key unless its URL is there. Any other failure is thrown.
     */
    private void writeOnce(List<PageRecord> pages) throws SQLException {
        try {
            insertPage.executeBatch();
        } catch (BatchUpdateException e) {
            for (SQLException each = e.getNextException() == null ? e : e.getNextException(); each != null;
                    each = each.getNextException()) {
                if (!DUPLICATE_KEY.equals(each.getSQLState())) {
                    throw e;
                }
            }
            if (hashKey) {
                int[] counts = e.getUpdateCounts();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == Statement.EXECUTE_FAILED) {
                        storeAlongChain(pages.get(i));
                    }
                }
            }
        }
    }

    /** The chain's lookup: prepared wherever pages are keyed by hash. */
    private PreparedStatement chain() {
        return Objects.requireNonNull(chain, "pages are keyed by URL here, not by hash");
    }

    /** Stores {@code page} at the first free key of its URL's chain, unless the URL is stored already. */
    private void storeAlongChain(PageRecord page) throws SQLException {
        UrlKey.Slot slot = UrlKey.find(chain(), page.jobId(), page.url());
        if (!slot.found()) {
            bindPage(page, slot.key());
            insertPage.executeUpdate();
        }
    }

    /** Binds {@code page} to {@code insertPage}, and {@code key} as its {@code url_hash} where pages are keyed by hash. */
    private void bindPage(PageRecord page, long key) throws SQLException {
        Rows.bindPage(insertPage, page);
        if (hashKey) {
            insertPage.setLong(HASHED_PAGE_COLUMNS.size(), key);
        }
    }
}
