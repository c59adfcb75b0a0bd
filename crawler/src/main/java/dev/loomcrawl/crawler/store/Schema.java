package dev.loomcrawl.crawler.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Creates the tables, and migrates databases made by earlier versions: every step is idempotent, columns
 * are only ever added (never dropped or renamed), so any older database opens and every newer node of a
 * cluster can run against it. On PostgreSQL an advisory lock keeps nodes that start together in turn.
 */
public final class Schema {
    /** An arbitrary constant naming our migration lock on PostgreSQL. */
    private static final long MIGRATION_LOCK = 0x6c6f6f6d637261L;
    /**
     * Values of {@code pages.seq} H2 hands out between writes of the sequence: a killed process leaves a gap
     * of up to this many in {@code seq}, which only orders rows.
     */
    static final long SEQ_CACHE = 1_000_000;

    /** A page row's columns of what its fetch found: what a revisit that found new content rewrites. */
    static final List<String> ANSWER_COLUMNS = List.of("status", "content_type", "title", "bytes", "fetch_ms",
            "attempts", "failure", "detail", "fetched_at", "thread", "outlinks", "fields", "canonical", "body",
            "page_ms", "etag", "last_modified", "digest", "simhash", "content", "lang", "description", "author",
            "published", "noindex");
    /** A page row's columns: where the URL was found, then {@link #ANSWER_COLUMNS}. */
    public static final List<String> PAGE_COLUMNS = Stream.concat(Stream.of("job_id", "url", "depth", "referrer"),
            ANSWER_COLUMNS.stream()).toList();
    /** The columns of the admissions log, and of the frontier table earlier versions kept it in. */
    static final List<String> ADMITTED_COLUMNS = List.of("job_id", "url", "depth", "redirects", "referrer");

    private Schema() {}

    /**
     * Brings the database to today's schema.
     *
     * @return whether its pages are keyed by {@code (job_id, url_hash)} (see {@link UrlKey}) and numbered in the
     *     order they were stored ({@code seq}): on an H2 database this version created; pages made earlier, and
     *     PostgreSQL's, stay keyed by {@code (job_id, url)}
     */
    static boolean migrate(Connection c, Dialect dialect) throws SQLException {
        return inOneTransaction(c, dialect == Dialect.POSTGRES, st -> StoreTables.migrate(c, st, dialect, columns(c)));
    }

    /** A migration's steps. */
    private interface Steps<T> {
        T run(Statement st) throws SQLException;
    }

    /**
     * Runs {@code steps} in one transaction on {@code c}, on PostgreSQL ({@code lock}) under an advisory lock held to
     * its end, so that nodes starting together take turns; rolled back whole on a failure.
     */
    private static <T> T inOneTransaction(Connection c, boolean lock, Steps<T> steps) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            if (lock) {
                st.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")");
            }
            T result = steps.run(st);
            c.commit();
            return result;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /**
     * Gives {@code pages.seq} of a database made before its cache was set the cache new ones have. H2 writes
     * a sequence's next unused value to the file each time it hands out its cache: every 32 rows by default,
     * which made a commit of its own, written to the file at once ({@code WRITE_DELAY=0}, see
     * {@link PageStore}): 625 file writes on a 10,000-page crawl instead of 20.
     */
    static void identityCache(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT identity_cache FROM information_schema.columns"
                + " WHERE table_schema = 'PUBLIC' AND table_name = 'PAGES' AND column_name = 'SEQ'")) {
            if (!rs.next() || rs.getLong(1) >= SEQ_CACHE) {
                return;
            }
        }
        st.execute("ALTER TABLE pages ALTER COLUMN seq SET CACHE " + SEQ_CACHE);
    }

    /** A column added after its table's first release. */
    public record Added(String name, String type) {}

    /** Tables beyond the store's own (a cluster's), created or completed as {@link #table} does. */
    public interface Extension {
        void migrate(Statement st, Set<String> have) throws SQLException;
    }

    /**
     * Brings {@code extension}'s tables to today's schema on PostgreSQL, in a transaction of their own under the
     * same lock as {@link #migrate}, so that nodes starting together take turns.
     */
    @SuppressWarnings("NullAway") // its steps return nothing: null, as a Void
    public static void extend(Connection c, Extension extension) throws SQLException {
        inOneTransaction(c, true, st -> {
            extension.migrate(st, columns(c));
            return null;
        });
    }

    /**
     * Creates {@code table} as it is today in one statement (its first release's columns, then those added
     * since, then {@code key} if not null), or gives the table an earlier version made the columns it lacks.
     * The columns present were read once (see {@link #columns}): on H2 each {@code ALTER TABLE}, even one that
     * changes nothing, cost a cold start about 3 ms, and a new database took thirteen.
     */
    public static void table(Statement st, Set<String> have, String table, String first, List<Added> added,
            @Nullable String key) throws SQLException {
        if (have.stream().noneMatch(column -> column.startsWith(table + "."))) {
            StringBuilder create = new StringBuilder("CREATE TABLE IF NOT EXISTS " + table + " (" + first);
            for (Added column : added) {
                create.append(",\n").append(column.name()).append(' ').append(column.type());
            }
            st.execute(create.append(key == null ? ")" : ",\n" + key + ")").toString());
            return;
        }
        for (Added column : added) {
            if (!have.contains(table + "." + column.name())) {
                st.execute("ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + column.name() + " " + column.type());
            }
        }
    }

    /** Whether a column is of a text type (an earlier version's {@code content}). */
    static boolean isText(Connection c, String table, String column) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT data_type FROM"
                + " information_schema.columns WHERE table_schema = CURRENT_SCHEMA AND LOWER(table_name) = '" + table
                + "' AND LOWER(column_name) = '" + column + "'")) {
            String type = rs.next() ? rs.getString(1).toUpperCase(Locale.ROOT) : "";
            return type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB");
        }
    }

    /**
     * Every column already in the database's current schema, as lower-case {@code table.column}
     * (H2 keeps unquoted names in upper case, PostgreSQL in lower), read in one query of the standard
     * {@code INFORMATION_SCHEMA}; empty for a new database.
     */
    private static Set<String> columns(Connection c) throws SQLException {
        Set<String> have = new HashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT table_name, column_name"
                + " FROM information_schema.columns WHERE table_schema = CURRENT_SCHEMA")) {
            while (rs.next()) {
                have.add((rs.getString(1) + "." + rs.getString(2)).toLowerCase(Locale.ROOT));
            }
        }
        return have;
    }
}
