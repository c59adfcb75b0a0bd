package dev.loomcrawl.crawler.store;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What differs between H2 and PostgreSQL in our SQL: a few type names and how a row is written only if its
 * key is new. Everything else is standard SQL that both speak, written once.
 */
public enum Dialect {
    H2("CHARACTER VARYING", "BINARY LARGE OBJECT"),
    POSTGRES("TEXT", "BYTEA");

    private final String longText;
    private final String bytes;

    Dialect(String longText, String bytes) {
        this.longText = longText;
        this.bytes = bytes;
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
     * Writes a row of {@code columns} once per {@code key}, never failing on a key already there: a batch
     * with one repeated row must not lose the others. On PostgreSQL the first row stays ({@code ON CONFLICT
     * DO NOTHING}: nodes of a cluster may race for a URL, and the first result wins). On H2, one process
     * writes each URL's result once and a repeat is the same result again, so H2's own {@code MERGE ...
     * KEY} upsert serves. (Not the standard {@code MERGE ... USING (VALUES (?, ...))}: H2 types that
     * derived table from the first row bound, so a batch led by a row of nulls turns later values to null.)
     */
    String writeOnce(String table, List<String> columns, List<String> key) {
        String values = String.join(", ", Collections.nCopies(columns.size(), "?"));
        String cols = String.join(", ", columns);
        return switch (this) {
            case H2 -> "MERGE INTO " + table + " (" + cols + ") KEY (" + String.join(", ", key) + ") VALUES (" + values + ")";
            case POSTGRES -> "INSERT INTO " + table + " (" + cols + ") VALUES (" + values + ") ON CONFLICT ("
                    + String.join(", ", key) + ") DO NOTHING";
        };
    }
}
