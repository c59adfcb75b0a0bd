package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.h2.jdbcx.JdbcConnectionPool;

/**
 * A small pool of read connections, never the writer's; queries run and close their statements here.
 *
 * <p>Callers wait for a connection in line on a fair {@link Semaphore} with as many permits as the pool has
 * connections, not inside the pool. HikariCP hands a returned connection to a waiting borrower by spinning
 * ({@code ConcurrentBag.requite}: offer, yield or a 10 µs park, again) until a waiter takes it; with hundreds
 * of virtual threads committing a cluster's results, two returners spun on both carrier threads while the
 * borrowers that would take their connections waited for a carrier: a node stopped for good (a CI run's
 * {@code ClusterTest}, its thread dump; HikariCP issue #2398). Behind the gate no caller waits inside the pool for
 * a connection to be handed over, and the pool is fixed, opened at start, so none waits for one being opened.
 */
public final class Readers implements AutoCloseable {
    private static final int MAX_CONNECTIONS = 16;

    /** Work on a connection. */
    public interface OnConnection<T> {
        T run(Connection c) throws SQLException;
    }

    interface RowSink {
        void accept(ResultSet row) throws SQLException;
    }

    interface Result<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** One row read into a value. */
    public interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    private final DataSource source;
    private final AutoCloseable pool;
    private final Semaphore gate;

    private Readers(DataSource source, AutoCloseable pool, int size) {
        this.source = source;
        this.pool = pool;
        this.gate = new Semaphore(size, true);
    }

    static Readers open(String url, Dialect dialect) {
        if (dialect == Dialect.H2) {
            JdbcConnectionPool pool = JdbcConnectionPool.create(url, "sa", "");
            pool.setMaxConnections(MAX_CONNECTIONS);
            return new Readers(pool, pool::dispose, MAX_CONNECTIONS);
        }
        return postgres(url, MAX_CONNECTIONS, "loomcrawl-db");
    }

    /** A pool of {@code size} PostgreSQL connections. */
    public static Readers postgres(String url, int size, String name) {
        com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size); // a fixed pool, opened at start: no caller waits inside it for a new connection
        config.setPoolName(name);
        // A node paused or cut off in the middle of a transaction must not hold its row locks for long: the
        // server ends a transaction left idle this long, and no statement waits for a lock longer than this.
        config.addDataSourceProperty("options", "-c idle_in_transaction_session_timeout=5000 -c lock_timeout=10000"
                + " -c plan_cache_mode=force_custom_plan");
        // A batch of inserts goes as one multi-row INSERT: one statement for a batch of pages.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config);
        return new Readers(pool, pool, size);
    }

    /** The pool itself, not behind the gate: for tests only ({@link PageStore#dataSource}). */
    public DataSource dataSource() {
        return source;
    }

    /** Runs {@code work} on a pooled connection, once one is free and every earlier caller has had theirs. */
    public <T> T withConnection(OnConnection<T> work) throws SQLException {
        try {
            gate.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // as the pool does: a cancelled task's wait ends in a failure
            throw new SQLException("interrupted while waiting for a database connection", e);
        }
        try (Connection c = source.getConnection()) {
            return work.run(c);
        } finally {
            gate.release(); // the connection is back in the pool: the next in line finds it there
        }
    }

    <T> T query(String sql, Result<T> result, Object... args) {
        try {
            return withConnection(c -> {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    bind(ps, args);
                    try (ResultSet rs = ps.executeQuery()) {
                        return result.read(rs);
                    }
                }
            });
        } catch (SQLException e) {
            throw new StoreException("storage failed: " + e.getMessage(), e);
        }
    }

    /** Runs {@code sql} and hands each row to {@code sink}, fetching rows in chunks, not all at once. */
    @SuppressWarnings("NullAway") // its steps return nothing: null, as a Void
    void stream(String sql, RowSink sink, Object... args) {
        try {
            withConnection(c -> {
                boolean autoCommit = c.getAutoCommit();
                c.setAutoCommit(false); // PostgreSQL streams with a fetch size only inside a transaction
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    bind(ps, args);
                    ps.setFetchSize(1_000);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            sink.accept(rs);
                        }
                    }
                } finally {
                    c.rollback();
                    c.setAutoCommit(autoCommit);
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StoreException("storage failed: " + e.getMessage(), e);
        }
    }

    public long count(String sql, Object... args) {
        return query(sql, rs -> {
            rs.next();
            return rs.getLong(1);
        }, args);
    }

    List<JobRow> jobs(String sql, Object... args) {
        return list(sql, Rows::job, args);
    }

    /** Every row of {@code sql}, each read by {@code row}. */
    public <T> List<T> list(String sql, Row<T> row, Object... args) {
        return query(sql, rs -> {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.read(rs));
            }
            return rows;
        }, args);
    }

    /** One statement of {@code sql} with {@code args}, on {@code c} (the writer's): the rows it changed. */
    static int update(Connection c, String sql, @Nullable Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            return ps.executeUpdate();
        }
    }

    static void bind(PreparedStatement ps, @Nullable Object[] args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
    }

    @Override
    public void close() {
        try {
            pool.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
