package dev.loomcrawl.crawler;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.h2.jdbcx.JdbcConnectionPool;

/**
 * Jobs and pages in H2 over JDBC.
 *
 * <p>Crawl tasks hand pages to {@link #save} and go on; one writer thread stores them in batches, one
 * transaction per batch (group commit). That keeps JDBC off the hot path of thousands of tasks, and
 * keeps H2's file channel away from the interrupts that cancel a job: an interrupted {@code FileChannel}
 * closes, which would take the database down with it. The write connection is guarded by a
 * {@link ReentrantLock}, never {@code synchronized}, because it is held across blocking I/O. Reads use a
 * small pool of their own connections and never wait for the writer.
 */
public final class PageStore implements AutoCloseable {

    private static final int BATCH = 512;
    private static final int QUEUE = 8_192;

    private final JdbcConnectionPool readers;
    private final Connection writer;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Condition committedAdvanced = writeLock.newCondition();
    /** {@link PageRecord}s and {@link Admitted} URLs, committed in the order they were queued. */
    private final BlockingQueue<Object> pending = new ArrayBlockingQueue<>(QUEUE);
    private final AtomicLong enqueued = new AtomicLong();
    private long committed; // guarded by writeLock
    private volatile Throwable writerFailure;
    /** A URL a job admitted to its frontier; kept so a restarted job knows what it had yet to fetch. */
    record Admitted(long jobId, String url, int depth, int redirects) {}

    /** What a job had admitted and stored when its process stopped. */
    public record ResumeState(List<Admitted> admitted, java.util.Set<String> stored, long pages, long failed) {}

    /** Put last into the queue by {@link #close()}: the writer stores what is before it and stops. */
    private static final PageRecord STOP = new PageRecord(0, "", 0, 0, null, null, 0, 0, 0, 0, null, null, null, null);
    private final Thread writerThread;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private PageStore(String jdbcUrl) throws SQLException {
        this.writer = DriverManager.getConnection(jdbcUrl, "sa", "");
        this.readers = JdbcConnectionPool.create(jdbcUrl, "sa", "");
        this.readers.setMaxConnections(16);
        createSchema();
        this.writerThread = Thread.ofPlatform().name("loomcrawl-store").daemon(true).start(this::writeLoop);
    }

    /**
     * Opens (and creates if needed) the database at {@code jdbcUrl}, e.g. {@code jdbc:h2:./data/loomcrawl}
     * or {@code jdbc:h2:mem:test;DB_CLOSE_DELAY=-1}.
     *
     * @throws IllegalArgumentException if the URL is not an H2 JDBC URL or the database cannot be opened
     */
    public static PageStore open(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:h2:")) {
            throw new IllegalArgumentException("db must be an H2 JDBC URL (jdbc:h2:...), was '" + jdbcUrl + "'");
        }
        // We close the database ourselves, after the writer has drained; H2's own exit hook would close
        // it under the writer, in parallel with ours.
        String url = jdbcUrl.toUpperCase(java.util.Locale.ROOT).contains("DB_CLOSE_ON_EXIT") ? jdbcUrl
                : jdbcUrl + ";DB_CLOSE_ON_EXIT=FALSE";
        try {
            return new PageStore(url);
        } catch (SQLException e) {
            throw new IllegalArgumentException("cannot open database '" + jdbcUrl + "': " + e.getMessage(), e);
        }
    }

    private void createSchema() throws SQLException {
        try (Statement st = writer.createStatement()) {
            st.execute("""
                    CREATE TABLE IF NOT EXISTS jobs (
                      id BIGINT AUTO_INCREMENT PRIMARY KEY,
                      created_at TIMESTAMP WITH TIME ZONE NOT NULL,
                      finished_at TIMESTAMP WITH TIME ZONE,
                      status VARCHAR(16) NOT NULL,
                      mode VARCHAR(16) NOT NULL,
                      pool_size INT NOT NULL,
                      spec CHARACTER LARGE OBJECT,
                      summary CHARACTER LARGE OBJECT)""");
            st.execute("""
                    CREATE TABLE IF NOT EXISTS pages (
                      job_id BIGINT NOT NULL,
                      url VARCHAR(4096) NOT NULL,
                      depth INT NOT NULL,
                      status INT NOT NULL,
                      content_type VARCHAR(256),
                      title VARCHAR(1024),
                      bytes INT NOT NULL,
                      text_length INT NOT NULL,
                      fetch_ms DOUBLE PRECISION NOT NULL,
                      attempts INT NOT NULL DEFAULT 1,
                      failure VARCHAR(32),
                      detail VARCHAR(1024),
                      fetched_at TIMESTAMP WITH TIME ZONE NOT NULL,
                      thread VARCHAR(64),
                      PRIMARY KEY (job_id, url))""");
            // Databases made by earlier versions gain what is new here; never a column dropped or renamed.
            st.execute("ALTER TABLE pages ADD COLUMN IF NOT EXISTS attempts INT NOT NULL DEFAULT 1");
            st.execute("""
                    CREATE TABLE IF NOT EXISTS frontier (
                      job_id BIGINT NOT NULL,
                      url VARCHAR(4096) NOT NULL,
                      depth INT NOT NULL,
                      redirects INT NOT NULL,
                      PRIMARY KEY (job_id, url))""");
        }
        writer.setAutoCommit(false);
    }

    /** A new job row; returns its id. {@code spec} and {@code summary} are opaque text (JSON by the API). */
    public long createJob(ExecutionMode mode, int poolSize, String spec) {
        return withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO jobs (created_at, status, mode, pool_size, spec) VALUES (?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setTimestamp(1, Timestamp.from(Instant.now()));
                ps.setString(2, JobStatus.QUEUED.label());
                ps.setString(3, mode.label());
                ps.setInt(4, poolSize);
                ps.setString(5, spec);
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return keys.getLong(1);
                }
            }
        });
    }

    /** Records a job's status; a finished status also stamps {@code finished_at} and keeps the summary. */
    public void updateJob(long jobId, JobStatus status, String summary) {
        withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE jobs SET status = ?, finished_at = ?, summary = COALESCE(?, summary) WHERE id = ?")) {
                ps.setString(1, status.label());
                ps.setTimestamp(2, status.finished() ? Timestamp.from(Instant.now()) : null);
                ps.setString(3, summary);
                ps.setLong(4, jobId);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * Queues a page for the writer. Blocks only when the writer is {@value #QUEUE} pages behind, which
     * slows the crawl to what the disk can take instead of growing memory.
     *
     * @throws IllegalStateException if the writer has failed
     */
    public void save(PageRecord page) throws InterruptedException {
        throwIfFailed();
        enqueued.incrementAndGet();
        pending.put(page);
    }

    /**
     * Queues URLs a job admitted. A task queues its page's new links before the page itself: the writer
     * commits in queue order, so a stored page always has its links stored too, even after a kill -9.
     */
    void admitted(List<Admitted> urls) throws InterruptedException {
        throwIfFailed();
        for (Admitted url : urls) {
            enqueued.incrementAndGet();
            pending.put(url);
        }
    }

    /** Waits until every page saved before this call is committed. */
    public void flush() throws InterruptedException {
        long target = enqueued.get();
        writeLock.lock();
        try {
            while (committed < target) {
                throwIfFailed();
                committedAdvanced.await();
            }
        } finally {
            writeLock.unlock();
        }
        throwIfFailed();
    }

    private void writeLoop() {
        List<Object> batch = new ArrayList<>(BATCH);
        try {
            boolean stop = false;
            while (!stop) {
                batch.add(pending.take());
                pending.drainTo(batch, BATCH - 1);
                stop = batch.getLast() == STOP;
                if (stop) {
                    batch.removeLast();
                }
                if (!batch.isEmpty()) {
                    writeBatch(batch);
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException | RuntimeException e) {
            writerFailure = e;
        } finally {
            writeLock.lock();
            try {
                committedAdvanced.signalAll();
            } finally {
                writeLock.unlock();
            }
        }
    }

    private void writeBatch(List<Object> batch) throws SQLException {
        writeLock.lock();
        try (PreparedStatement admitted = writer.prepareStatement(
                "MERGE INTO frontier (job_id, url, depth, redirects) KEY (job_id, url) VALUES (?, ?, ?, ?)");
             PreparedStatement ps = writer.prepareStatement("""
                MERGE INTO pages (job_id, url, depth, status, content_type, title, bytes, text_length, fetch_ms,
                                  attempts, failure, detail, fetched_at, thread)
                KEY (job_id, url) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Object write : batch) {
                if (write instanceof Admitted a) {
                    admitted.setLong(1, a.jobId());
                    admitted.setString(2, a.url());
                    admitted.setInt(3, a.depth());
                    admitted.setInt(4, a.redirects());
                    admitted.addBatch();
                    continue;
                }
                PageRecord p = (PageRecord) write;
                ps.setLong(1, p.jobId());
                ps.setString(2, p.url());
                ps.setInt(3, p.depth());
                ps.setInt(4, p.status());
                ps.setString(5, truncate(p.contentType(), 256));
                ps.setString(6, truncate(p.title(), 1024));
                ps.setInt(7, p.bytes());
                ps.setInt(8, p.textLength());
                ps.setDouble(9, p.fetchMillis());
                ps.setInt(10, p.attempts());
                ps.setString(11, p.failure());
                ps.setString(12, truncate(p.detail(), 1024));
                ps.setTimestamp(13, Timestamp.from(p.fetchedAt()));
                ps.setString(14, truncate(p.thread(), 64));
                ps.addBatch();
            }
            admitted.executeBatch(); // one transaction: links and the pages that found them
            ps.executeBatch();
            writer.commit();
            committed += batch.size();
            committedAdvanced.signalAll();
        } catch (SQLException e) {
            writer.rollback();
            throw e;
        } finally {
            writeLock.unlock();
        }
    }

    /** Stored pages of a job in URL order; {@code status} filters when not null. */
    public List<PageRecord> pages(long jobId, int offset, int limit, Integer status) {
        List<PageRecord> out = new ArrayList<>();
        forEachPage(jobId, offset, limit, status, out::add);
        return out;
    }

    /** Streams a job's pages to {@code sink} without holding them all in memory. */
    public void forEachPage(long jobId, int offset, int limit, Integer status, Consumer<PageRecord> sink) {
        String sql = "SELECT * FROM pages WHERE job_id = ?" + (status == null ? "" : " AND status = ?")
                + " ORDER BY url LIMIT ? OFFSET ?";
        withReader(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 1;
                ps.setLong(i++, jobId);
                if (status != null) {
                    ps.setInt(i++, status);
                }
                ps.setInt(i++, limit);
                ps.setInt(i, offset);
                ps.setFetchSize(500);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        sink.accept(new PageRecord(rs.getLong("job_id"), rs.getString("url"), rs.getInt("depth"),
                                rs.getInt("status"), rs.getString("content_type"), rs.getString("title"),
                                rs.getInt("bytes"), rs.getInt("text_length"), rs.getDouble("fetch_ms"),
                                rs.getInt("attempts"), rs.getString("failure"), rs.getString("detail"),
                                rs.getTimestamp("fetched_at").toInstant(), rs.getString("thread")));
                    }
                }
            }
            return null;
        });
    }

    /** Number of stored pages of a job; {@code status} filters when not null. */
    public long countPages(long jobId, Integer status) {
        return withReader(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM pages WHERE job_id = ?"
                    + (status == null ? "" : " AND status = ?"))) {
                ps.setLong(1, jobId);
                if (status != null) {
                    ps.setInt(2, status);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /** What job {@code jobId} had admitted and stored, to resume it. */
    public ResumeState resumeState(long jobId) {
        return withReader(c -> {
            List<Admitted> admitted = new ArrayList<>();
            java.util.Set<String> stored = new java.util.HashSet<>();
            long pages = 0;
            long failed = 0;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT url, depth, redirects FROM frontier WHERE job_id = ? ORDER BY depth")) {
                ps.setLong(1, jobId);
                ps.setFetchSize(1_000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        admitted.add(new Admitted(jobId, rs.getString(1), rs.getInt(2), rs.getInt(3)));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT url, failure FROM pages WHERE job_id = ?")) {
                ps.setLong(1, jobId);
                ps.setFetchSize(1_000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        stored.add(rs.getString(1));
                        if (rs.getString(2) == null) {
                            pages++;
                        } else {
                            failed++;
                        }
                    }
                }
            }
            return new ResumeState(admitted, stored, pages, failed);
        });
    }

    /** Jobs a process left queued or running: to resume. */
    public List<JobRow> unfinishedJobs() {
        return queryJobs("SELECT * FROM jobs WHERE status IN ('queued', 'running') ORDER BY id");
    }

    /** A job row as stored. */
    public record JobRow(long id, Instant createdAt, Instant finishedAt, String status,
            String mode, int poolSize, String spec, String summary) {}

    /** Jobs, newest first. */
    public List<JobRow> jobs(int offset, int limit) {
        return queryJobs("SELECT * FROM jobs ORDER BY id DESC LIMIT ? OFFSET ?", limit, offset);
    }

    public Optional<JobRow> job(long id) {
        return queryJobs("SELECT * FROM jobs WHERE id = ?", id).stream().findFirst();
    }

    public long countJobs() {
        return withReader(c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM jobs")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** Jobs by status, e.g. {@code {done=3, running=1}}. */
    public java.util.Map<String, Long> jobCountsByStatus() {
        return withReader(c -> {
            java.util.Map<String, Long> counts = new java.util.TreeMap<>();
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT status, COUNT(*) FROM jobs GROUP BY status")) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getLong(2));
                }
            }
            return counts;
        });
    }

    private List<JobRow> queryJobs(String sql, Object... args) {
        return withReader(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                List<JobRow> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Timestamp finished = rs.getTimestamp("finished_at");
                        rows.add(new JobRow(rs.getLong("id"), rs.getTimestamp("created_at").toInstant(),
                                finished == null ? null : finished.toInstant(), rs.getString("status"),
                                rs.getString("mode"), rs.getInt("pool_size"), rs.getString("spec"),
                                rs.getString("summary")));
                    }
                }
                return rows;
            }
        });
    }

    private interface Sql<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T withWriter(Sql<T> work) {
        writeLock.lock();
        try {
            T result = work.run(writer);
            writer.commit();
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("storage failed: " + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    private <T> T withReader(Sql<T> work) {
        try (Connection c = readers.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new IllegalStateException("storage failed: " + e.getMessage(), e);
        }
    }

    private void throwIfFailed() {
        Throwable failure = writerFailure;
        if (failure != null) {
            throw new IllegalStateException("page writer failed: " + failure.getMessage(), failure);
        }
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** Writes what is queued, then closes the database connections. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            pending.put(STOP);
            writerThread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writeLock.lock();
        try {
            writer.close();
        } catch (SQLException e) {
            // closing anyway: nothing more to do with it
        } finally {
            writeLock.unlock();
        }
        readers.dispose();
    }
}
