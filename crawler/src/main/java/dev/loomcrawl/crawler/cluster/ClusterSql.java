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
    /** The session was ended: by another node's fence ({@link ClusterLeases#endDeadNodesTransactions}). */
    private static final String TERMINATED = "57P01";
    /** The session was ended after idling inside a transaction ({@code idle_in_transaction_session_timeout}). */
    private static final String IDLE_TOO_LONG = "25P03";
    /** The connection was lost. */
    private static final String CONNECTION_CLASS = "08";

    interface InTransaction<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction on a connection of {@code from}, committed unless it returns null.
     * The transaction is whole or nothing, so one that failed before its commit was sent runs again (up to three
     * times in all) on another connection, if PostgreSQL broke it to end a deadlock, or its session was ended or
     * lost: a node frozen past its lease finds its session ended when it wakes, and its results are then checked
     * against the leases as they are now. A failure of the commit itself is not run again: it may have committed.
     */
    static <T> T transaction(Readers from, InTransaction<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return from.withConnection(c -> {
                    c.setAutoCommit(false);
                    T result;
                    try {
                        result = work.run(c);
                    } catch (SQLException e) {
                        rollback(c, e);
                        throw runsAgain(e) ? new RunAgain(e) : e;
                    }
                    if (result == null) {
                        c.rollback();
                    } else {
                        c.commit();
                    }
                    return result;
                });
            } catch (RunAgain e) {
                if (attempt < 3) {
                    continue;
                }
                throw new StoreException("cluster storage failed: " + e.getMessage(), e.getCause());
            } catch (SQLException e) {
                throw new StoreException("cluster storage failed: " + e.getMessage(), e);
            }
        }
    }

    private static boolean runsAgain(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.equals(DEADLOCK) || state.equals(TERMINATED) || state.equals(IDLE_TOO_LONG)
                || state.startsWith(CONNECTION_CLASS));
    }

    /** Rolls back after {@code failure}; on a connection already ended, the rollback's own failure goes with it. */
    private static void rollback(Connection c, SQLException failure) {
        try {
            c.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    /** A transaction that failed before its commit was sent, and may run again. */
    private static final class RunAgain extends SQLException {
        RunAgain(SQLException failure) {
            super(failure.getMessage(), failure.getSQLState(), failure);
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
