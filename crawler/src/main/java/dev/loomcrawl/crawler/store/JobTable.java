package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.concurrent.Handoff;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The jobs table and the {@code Retry-After} windows ({@link PageStore#jobs()}): written at once, each write
 * committed on the writer's connection under its lock, so a status change is durable when the call returns;
 * read on the read pool.
 */
public final class JobTable {
    /** {@link JobRow#UNFINISHED} as an SQL list, for {@code status IN ...}. */
    private static final String UNFINISHED_SQL = "('" + String.join("', '", JobRow.UNFINISHED) + "')";

    private final Connection writer;
    private final ReentrantLock writeLock;
    private final GroupWriter group;
    private final Readers readers;
    private final Dialect dialect;
    /** The thread every write of {@link #withWriter} runs on: never interrupted, so never closes the file. */
    private final ExecutorService jobWrites = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("loomcrawl-store-jobs").daemon(true).factory());

    JobTable(Connection writer, ReentrantLock writeLock, GroupWriter group, Readers readers, Dialect dialect) {
        this.writer = writer;
        this.writeLock = writeLock;
        this.group = group;
        this.readers = readers;
        this.dialect = dialect;
    }

    /** A new job row, {@code running} in its first run; returns its id. */
    public long create(String mode, int poolSize, String config, boolean cluster) {
        return withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO jobs (created_at, status, mode, pool_size,"
                    + " config, spec, cluster, runs, alive_at) VALUES (?, 'running', ?, ?, ?, ?, ?, 1, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setTimestamp(1, Timestamp.from(Instant.now()));
                ps.setString(2, mode);
                ps.setInt(3, poolSize);
                ps.setString(4, config);
                ps.setString(5, config); // read by versions before 'config' existed
                ps.setBoolean(6, cluster);
                ps.setTimestamp(7, Timestamp.from(Instant.now()));
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /**
     * Records a job's status; an ended one ({@code done}, {@code cancelled}, {@code failed}) also stamps
     * {@code finished_at}. A summary, when given, replaces the stored one.
     */
    public void update(long jobId, String status, @Nullable String summary) {
        boolean ended = Set.of("done", "cancelled", "failed").contains(status);
        withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE jobs SET status = ?, finished_at = ?, summary = COALESCE(?, summary) WHERE id = ?")) {
                ps.setString(1, status);
                ps.setTimestamp(2, ended ? Timestamp.from(Instant.now()) : null);
                ps.setString(3, summary);
                ps.setLong(4, jobId);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Marks a job cancelled unless it has ended already; returns whether it was running. Durable when this
     * returns: a process killed right after does not resume it.
     */
    public boolean cancel(long jobId) {
        return withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET status = 'cancelled', finished_at = ?"
                    + " WHERE id = ? AND status IN " + UNFINISHED_SQL)) {
                ps.setTimestamp(1, Timestamp.from(Instant.now()));
                ps.setLong(2, jobId);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /**
     * Adds one process's share of a job: running time and CPU time since its last call (a running job calls this
     * every {@link JobRow#CHECKPOINT}, so a killed process loses at most that much), and one more run when
     * {@code newRun}. Stamps {@code alive_at}: the job's process was alive now.
     */
    public void addRunTime(long jobId, double seconds, double cpuSeconds, boolean newRun) {
        withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET active_seconds = active_seconds + ?,"
                    + " cpu_seconds = cpu_seconds + ?, runs = runs + ?, alive_at = ? WHERE id = ?")) {
                ps.setDouble(1, seconds);
                ps.setDouble(2, Math.max(0, cpuSeconds));
                ps.setInt(3, newRun ? 1 : 0);
                ps.setTimestamp(4, Timestamp.from(Instant.now()));
                ps.setLong(5, jobId);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Records that {@code hostKey} asked for no request before {@code until} ({@code Retry-After}); a later
     * window already stored stays. Durable when this returns: a process killed inside the window and started
     * again keeps out of it ({@link #hostRests}).
     */
    public void restHost(String hostKey, Instant until) {
        Timestamp at = Timestamp.from(until);
        withWriter(c -> {
            if (dialect == Dialect.POSTGRES) { // nodes of a cluster may race for the same host
                return Readers.update(c, "INSERT INTO host_rests (host_key, rest_until) VALUES (?, ?) ON CONFLICT (host_key)"
                        + " DO UPDATE SET rest_until = GREATEST(host_rests.rest_until, EXCLUDED.rest_until)", hostKey, at);
            }
            // H2 has one process, and this runs under its writer's lock: nothing can come between the two.
            int updated = Readers.update(c, "UPDATE host_rests SET rest_until = GREATEST(rest_until, ?) WHERE host_key = ?",
                    at, hostKey);
            return updated > 0 ? updated : Readers.update(c, "INSERT INTO host_rests (host_key, rest_until) VALUES (?, ?)",
                    hostKey, at);
        });
    }

    /** The {@code Retry-After} windows stored by {@link #restHost} that have not run out, by host key. */
    public Map<String, Instant> hostRests() {
        return readers.query("SELECT host_key, rest_until FROM host_rests WHERE rest_until > ?", rs -> {
            Map<String, Instant> rests = new TreeMap<>();
            while (rs.next()) {
                rests.put(rs.getString(1), rs.getTimestamp(2).toInstant());
            }
            return rests;
        }, Timestamp.from(Instant.now()));
    }

    public Optional<JobRow> find(long id) {
        return readers.jobs("SELECT * FROM jobs WHERE id = ?", id).stream().findFirst();
    }

    /** Jobs, newest first. */
    public List<JobRow> list(int offset, int limit) {
        return readers.jobs("SELECT * FROM jobs ORDER BY id DESC LIMIT ? OFFSET ?", limit, offset);
    }

    /** Jobs a process left queued or running, oldest first: to resume. */
    public List<JobRow> unfinished() {
        return readers.jobs("SELECT * FROM jobs WHERE status IN " + UNFINISHED_SQL + " ORDER BY id");
    }

    public long count() {
        return readers.count("SELECT COUNT(*) FROM jobs");
    }

    /** Jobs by status, e.g. {@code {done=3, running=1}}. */
    public Map<String, Long> countsByStatus() {
        return readers.query("SELECT status, COUNT(*) FROM jobs GROUP BY status", rs -> {
            Map<String, Long> counts = new TreeMap<>();
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
            return counts;
        });
    }

    interface Sql<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} on the writer's connection and commits it, on {@link #jobWrites}' thread: the caller
     * may be a thread that gets interrupted (a cancelled job's, a fetch's), and on H2 an interrupt that reaches
     * a thread in the middle of file I/O closes the database's {@code FileChannel}, and the database with it,
     * for everyone ("The database has been closed"). The caller waits for the commit uninterruptibly (the
     * write is durable when this returns, whatever interrupt came meanwhile) and keeps its interrupt.
     */
    /** Runs {@code work} on the writer's connection under its lock and commits it: durable on return. */
    <T> T withWriter(Sql<T> work) {
        Future<T> done;
        try {
            done = jobWrites.submit(() -> writeNow(work));
        } catch (RejectedExecutionException e) {
            throw new StoreException("the store is closed", e);
        }
        return Handoff.await(done); // writeNow throws StoreException alone
    }

    private <T> T writeNow(Sql<T> work) {
        writeLock.lock();
        try {
            group.commitPending(); // the rollback below must not take the group writer's rows
            T result = work.run(writer);
            writer.commit(); // durable when it returns (WRITE_DELAY=0 on H2): job states must survive a kill
            return result;
        } catch (SQLException e) {
            try {
                writer.rollback();
            } catch (SQLException ignored) {
                // the original failure is what matters
            }
            throw new StoreException("storage failed: " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Lets the writes handed over end (30 s at most); the connection stays the store's to close. */
    void close() {
        jobWrites.shutdown();
        try {
            jobWrites.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
