package dev.loomcrawl.crawler.store;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What differs between H2 and PostgreSQL in our SQL: a few type names and how a row is written only if its
 * key is new. Everything else is standard SQL that both speak, written once.
 */
public enum Dialect {
    H2("CHARACTER VARYING", "BINARY LARGE OBJECT", "BINARY VARYING"),
    POSTGRES("TEXT", "BYTEA", "BYTEA");

    private final String longText;
    private final String bytes;
    private final String rowBytes;

    Dialect(String longText, String bytes, String rowBytes) {
        this.longText = longText;
        this.bytes = bytes;
        this.rowBytes = rowBytes;
    }

    /** The dialect of a JDBC URL, or a one-line error naming what is supported. */
    public static Dialect of(String jdbcUrl) {
        String url = jdbcUrl == null ? "" : jdbcUrl.toLowerCase(Locale.ROOT);
        if (url.startsWith("jdbc:h2:")) {
            return H2;
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return POSTGRES;
        }
        throw new IllegalArgumentException(
                "db must be an H2 or PostgreSQL JDBC URL (jdbc:h2:... or jdbc:postgresql://...), was '" + jdbcUrl + "'");
    }

    /** Text of any length (H2 keeps it in the row, unlike a CLOB). */
    String longText() {
        return longText;
    }

    String bytes() {
        return bytes;
    }

    /**
     * Bytes of any length kept in the row: for a page's content as UTF-8, which H2 writes as one copy where it
     * writes a {@code CHARACTER VARYING} a character at a time.
     */
    String rowBytes() {
        return rowBytes;
    }

    /** The statement that turns a text column into {@link #rowBytes}, its text as UTF-8. */
    String textToRowBytes(String table, String column) {
        return this == H2 ? "ALTER TABLE " + table + " ALTER COLUMN " + column + " SET DATA TYPE " + rowBytes
                : "ALTER TABLE " + table + " ALTER COLUMN " + column + " TYPE BYTEA USING convert_to(" + column
                        + ", 'UTF8')";
    }

    /**
     * Writes a row of {@code columns} once per {@code key}, the first row written for a key staying: a batch
     * with one repeated row must not lose the others. On PostgreSQL {@code ON CONFLICT DO NOTHING} says so
     * (nodes of a cluster may race for a URL, and the first result wins). On H2 it is a plain {@code INSERT}:
     * H2 runs every row of a batch and reports the repeats together at the end, which the writer passes over
     * (see {@link GroupWriter}). That is one index search per row instead of the two of H2's {@code MERGE ...
     * KEY} upsert used before (an update by key, then the insert's own uniqueness check): 0.94x the CPU of storing
     * 20,000 pages alone.
     * (Not the standard {@code MERGE ... USING (VALUES (?, ...))}: H2 types that derived table from the first
     * row bound, so a batch led by a row of nulls turns later values to null.)
     */
    public String writeOnce(String table, List<String> columns, List<String> key) {
        return writeOnce(table, columns, key, 1);
    }

    /** {@link #writeOnce} of {@code rows} rows in one statement, their parameters one row after another. */
    public String writeOnce(String table, List<String> columns, List<String> key, int rows) {
        return switch (this) {
            case H2 -> insert(table, columns, rows);
            case POSTGRES -> insert(table, columns, rows) + " ON CONFLICT (" + String.join(", ", key) + ") DO NOTHING";
        };
    }

    /** A plain {@code INSERT} of one row of {@code columns}, a parameter each. */
    static String insert(String table, List<String> columns) {
        return insert(table, columns, 1);
    }

    private static String insert(String table, List<String> columns, int rows) {
        String row = "(" + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
        return "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES "
                + String.join(", ", Collections.nCopies(rows, row));
    }
}
