package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.store.Readers;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The cluster's SQL plumbing: reads go through {@link Readers}; writes run in a transaction here, which PostgreSQL
 * may break to end a deadlock, and which then runs again.
 */
final class ClusterSql {
    private ClusterSql() {}

    private static final String DEADLOCK = "40P01";

    interface InTransaction<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction on a connection of {@code from}, committed unless it returns null.
     * PostgreSQL breaks a deadlock by failing one side; the transaction is whole or nothing, so it runs
     * again, up to three times in all.
     */
    static <T> T transaction(Readers from, InTransaction<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return from.withConnection(c -> {
                    c.setAutoCommit(false);
                    try {
                        T result = work.run(c);
                        if (result == null) {
                            c.rollback();
                        } else {
                            c.commit();
                        }
                        return result;
                    } catch (SQLException e) {
                        c.rollback();
                        throw e;
                    }
                });
            } catch (SQLException e) {
                if (attempt < 3 && DEADLOCK.equals(e.getSQLState())) {
                    continue;
                }
                throw new StoreException("cluster storage failed: " + e.getMessage(), e);
            }
        }
    }

    static void update(Readers from, String sql, @Nullable Object... args) {
        transaction(from, c -> {
            update(c, sql, args);
            return Boolean.TRUE;
        });
    }

    /** The first column of the first row as a long, or {@code otherwise} when there is no row. */
    static long firstLong(Connection c, String sql, long otherwise, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : otherwise;
            }
        }
    }

    static void update(Connection c, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            ps.executeUpdate();
        }
    }

    static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Array a) {
                ps.setArray(i + 1, a);
            } else {
                ps.setObject(i + 1, args[i]);
            }
        }
    }
}
