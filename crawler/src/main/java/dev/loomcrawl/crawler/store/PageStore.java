package dev.loomcrawl.crawler.store;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Jobs and pages in H2 (embedded, the default) or PostgreSQL, over JDBC; the SQL is shared and the few
 * differences live in {@link Dialect}.
 *
 * <p>Three parts: {@link Schema} creates and migrates the tables; one {@link GroupWriter} thread commits
 * crawl results in batches; reads run on pooled connections of their own and never wait for the writer.
 *
 * <p>Durability: a result is durable once the writer has committed it. On an H2 file the writer commits at
 * least every {@value #COMMIT_MILLIS} ms while results keep coming (system property
 * {@code loomcrawl.commitMillis}; 0 commits every batch), and H2 writes each commit to the file before the
 * commit returns ({@code WRITE_DELAY=0}), so a process killed with SIGKILL loses at most the results of that
 * last interval (the operating system's file cache survives a killed process; a power cut is another matter).
 * What is lost is fetched again by a resumed job, never stored twice.
 */
public final class PageStore implements AutoCloseable {
    static final long COMMIT_MILLIS = 250; // 500 saves 6% CPU on 100,000 pages but breaks the kill bound (README)

    private final String jdbcUrl;
    private final Dialect dialect;
    private final Connection writer;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final GroupWriter group;
    /** The thread every write of {@link #withWriter} runs on: never interrupted, so never closes the file. */
    private final ExecutorService jobWrites = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("loomcrawl-store-jobs").daemon(true).factory());
    private final Readers readers;
    /** Whether pages are keyed by a hash of the URL ({@link UrlKey}): H2 databases this version created. */
    private final boolean hashKey;
    private ClusterStore cluster; // guarded by this

    private PageStore(String jdbcUrl, Dialect dialect, Connection writer, Readers readers) throws SQLException {
        this.jdbcUrl = jdbcUrl;
        this.dialect = dialect;
        this.writer = writer;
        this.readers = readers;
        this.hashKey = Schema.migrate(writer, dialect);
        writer.setAutoCommit(false);
        this.group = new GroupWriter(writer, writeLock, dialect, hashKey,
                dialect == Dialect.H2 && !inMemory(jdbcUrl) ? Duration.ofMillis(Long.getLong("loomcrawl.commitMillis", COMMIT_MILLIS))
                        : Duration.ZERO);
    }

    /**
     * Opens, creating or migrating as needed, the database at {@code jdbcUrl}: {@code jdbc:h2:./data/loomcrawl},
     * {@code jdbc:h2:mem:test;DB_CLOSE_DELAY=-1}, or {@code jdbc:postgresql://host:5432/db?user=u&password=p}.
     *
     * @throws IllegalArgumentException if the URL is neither H2 nor PostgreSQL
     * @throws StoreException with a one-line reason if the database cannot be opened
     */
    public static PageStore open(String jdbcUrl) {
        Dialect dialect = Dialect.of(jdbcUrl);
        String url = dialect == Dialect.H2 ? h2Url(jdbcUrl) : jdbcUrl;
        Connection writer = null;
        try {
            if (dialect == Dialect.H2) {
                requireWritableFolder(jdbcUrl);
            }
            writer = DriverManager.getConnection(url, dialect == Dialect.H2 ? "sa" : null, dialect == Dialect.H2 ? "" : null);
            return new PageStore(jdbcUrl, dialect, writer, Readers.open(url, dialect));
        } catch (SQLException e) {
            closeQuietly(writer);
            throw new StoreException(explain(jdbcUrl, e), e);
        }
    }

    private static boolean inMemory(String h2Url) {
        return h2Url.toUpperCase(Locale.ROOT).startsWith("JDBC:H2:MEM:");
    }

    /**
     * The H2 URL we open. H2 writes each commit to the file before the commit returns ({@code WRITE_DELAY=0}):
     * with a delay, its background thread writes commits as they pile up, pipelined with the next ones and
     * moving chunks about in the file, and H2 2.5.252 killed in the middle of that (1 of 300 cold crawls killed
     * in their first two seconds) left files it could not open again ("Chunk 4 not found", H2 issue #4383);
     * without one, every write to the file happens in the committing thread, in order. The group writer
     * commits at most every {@value #COMMIT_MILLIS} ms while results keep coming, so the file is written no
     * more often than before (nothing compacts the file as it is written: on 100,000 pages it grows to 1.6 times
     * what it was, see the README). We close the database ourselves, after the writer has drained; and closing
     * does not compact the file (H2 spends up to 200 ms of CPU on it by default, a cost every one-shot crawl paid
     * at exit); and H2's page cache is 8 MB instead of 16: a
     * crawl writes far more than it reads back, and the smaller cache is less for the collector to carry
     * (cold crawls, interleaved pairs: 0.97× CPU on 10,000 pages, 0.96–0.98× on 100,000).
     */
    private static String h2Url(String jdbcUrl) {
        // H2's own exit hook would close the database under the writer, in parallel with our shutdown.
        String url = withDefault(jdbcUrl, "DB_CLOSE_ON_EXIT", "FALSE");
        if (inMemory(jdbcUrl)) {
            return url; // no file: nothing to compact, nothing read back from disk
        }
        return withDefault(withDefault(withDefault(url, "WRITE_DELAY", "0"), "MAX_COMPACT_TIME", "0"),
                "CACHE_SIZE", "8192");
    }

    /** {@code url} with {@code ;setting=value} added, unless it sets {@code setting} itself. */
    private static String withDefault(String url, String setting, String value) {
        return url.toUpperCase(Locale.ROOT).contains(";" + setting + "=") ? url : url + ";" + setting + "=" + value;
    }

    /** A missing folder is created; one we cannot write to is said in one line, not 54 of H2 stack trace. */
    private static void requireWritableFolder(String jdbcUrl) {
        String rest = jdbcUrl.substring("jdbc:h2:".length());
        if (rest.startsWith("mem:") || rest.startsWith("tcp:") || rest.startsWith("ssl:")) {
            return;
        }
        String file = rest.startsWith("file:") ? rest.substring(5) : rest;
        if (file.startsWith("~")) {
            file = System.getProperty("user.home") + file.substring(1);
        }
        int semicolon = file.indexOf(';');
        Path path = Path.of(semicolon < 0 ? file : file.substring(0, semicolon)).toAbsolutePath();
        Path folder = path.getParent();
        try {
            Files.createDirectories(folder);
        } catch (AccessDeniedException e) {
            throw new StoreException("cannot create the database folder " + folder + ": permission denied", e);
        } catch (java.io.IOException e) {
            throw new StoreException("cannot create the database folder " + folder + ": " + e.getMessage(), e);
        }
        // Asked of the file system itself: root passes every permission check, and some folders (/proc) take no
        // files whatever the permissions say. H2 failing there printed its own trace, 54 lines of it.
        try {
            Files.delete(Files.createTempFile(folder, ".loomcrawl-", ".probe"));
        } catch (java.io.IOException | SecurityException e) {
            throw new StoreException("the database folder " + folder + " is not writable: "
                    + (e instanceof AccessDeniedException ? "permission denied" : "no file can be made there"), e);
        }
    }

    private static String explain(String jdbcUrl, SQLException e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        String first = (newline < 0 ? message : message.substring(0, newline)).strip();
        if (first.contains("Database may be already in use")) {
            return "the database " + jdbcUrl + " is in use by another loomcrawl process (a running serve?):"
                    + " stop it, or give this command another --db";
        }
        return "cannot open database '" + jdbcUrl + "': " + first;
    }

    /**
     * Whether no other process can be using this database: an H2 database opened here (H2 locks its file; a
     * {@code tcp:} or {@code ssl:} URL is a server others reach too). Then a job stored as running that this
     * process does not run has no process at all.
     */
    public boolean soleUser() {
        String rest = jdbcUrl.toLowerCase(Locale.ROOT);
        return dialect == Dialect.H2 && !rest.startsWith("jdbc:h2:tcp:") && !rest.startsWith("jdbc:h2:ssl:");
    }

    public Dialect dialect() {
        return dialect;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    /**
     * The read pool itself, for tests that run their own SQL: it bypasses the line every query of ours waits in
     * (see {@code Readers}), so nothing that runs alongside a crawl should take connections from it.
     */
    public DataSource dataSource() {
        return readers.dataSource();
    }

    /**
     * What nodes of a cluster share through this database.
     *
     * @throws IllegalStateException on H2: a cluster needs PostgreSQL
     */
    public synchronized ClusterStore cluster() {
        if (dialect != Dialect.POSTGRES) {
            throw new IllegalStateException("a cluster needs a PostgreSQL database (--db=jdbc:postgresql://...), was " + jdbcUrl);
        }
        if (cluster == null) {
            // The heartbeat gets connections of its own: lease renewals never queue behind crawl results.
            cluster = new ClusterStore(readers, Readers.postgres(jdbcUrl, 2, "loomcrawl-heartbeat"));
        }
        return cluster;
    }

    // ---- jobs: written at once, under the writer's lock, so a status change is durable when this returns

    /** A new job row, {@code running} in its first run; returns its id. */
    public long createJob(String mode, int poolSize, String config, boolean cluster) {
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
    public void updateJob(long jobId, String status, String summary) {
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
    public boolean cancelJob(long jobId) {
        return withWriter(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET status = 'cancelled', finished_at = ?"
                    + " WHERE id = ? AND status IN " + JobRow.UNFINISHED_SQL)) {
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
                return update(c, "INSERT INTO host_rests (host_key, rest_until) VALUES (?, ?) ON CONFLICT (host_key)"
                        + " DO UPDATE SET rest_until = GREATEST(host_rests.rest_until, EXCLUDED.rest_until)", hostKey, at);
            }
            // H2 has one process, and this runs under its writer's lock: nothing can come between the two.
            int updated = update(c, "UPDATE host_rests SET rest_until = GREATEST(rest_until, ?) WHERE host_key = ?",
                    at, hostKey);
            return updated > 0 ? updated : update(c, "INSERT INTO host_rests (host_key, rest_until) VALUES (?, ?)",
                    hostKey, at);
        });
    }

    private static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Readers.bind(ps, args);
            return ps.executeUpdate();
        }
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

    public Optional<JobRow> job(long id) {
        return readers.jobs("SELECT * FROM jobs WHERE id = ?", id).stream().findFirst();
    }

    /** Jobs, newest first. */
    public List<JobRow> jobs(int offset, int limit) {
        return readers.jobs("SELECT * FROM jobs ORDER BY id DESC LIMIT ? OFFSET ?", limit, offset);
    }

    /** Jobs a process left queued or running, oldest first: to resume. */
    public List<JobRow> unfinishedJobs() {
        return readers.jobs("SELECT * FROM jobs WHERE status IN " + JobRow.UNFINISHED_SQL + " ORDER BY id");
    }

    public long countJobs() {
        return readers.count("SELECT COUNT(*) FROM jobs");
    }

    /** Jobs by status, e.g. {@code {done=3, running=1}}. */
    public Map<String, Long> jobCountsByStatus() {
        return readers.query("SELECT status, COUNT(*) FROM jobs GROUP BY status", rs -> {
            Map<String, Long> counts = new TreeMap<>();
            while (rs.next()) {
                counts.put(rs.getString(1), rs.getLong(2));
            }
            return counts;
        });
    }

    // ---- crawl results: through the one writer, in order

    /**
     * Stores a URL's result together with the links it admitted and any links it skipped on sight. The
     * links are committed before (or with) the page, never after: a page that survives a crash always has
     * its links, so a resumed job misses none of them.
     */
    public void saveWithLinks(PageRecord page, List<Admitted> admitted, List<PageRecord> skipped)
            throws InterruptedException {
        List<PageRecord> pages;
        if (skipped.isEmpty()) {
            pages = List.of(page);
        } else {
            pages = new ArrayList<>(skipped.size() + 1);
            pages.addAll(skipped);
            pages.add(page);
        }
        group.submit(new GroupWriter.Write.Result(admitted, pages));
    }

    /** Stores URLs admitted with no page to go with them (a job's seeds), and rows recorded with them. */
    public void saveAdmitted(List<Admitted> admitted, List<PageRecord> recorded) throws InterruptedException {
        group.submit(new GroupWriter.Write.Result(admitted, recorded));
    }

    /**
     * Why the store cannot be used, or empty when it can: the writer failed, or the database answers no query
     * (closed under us). For health checks: a store in this state is reported, never a silent error per request.
     */
    public Optional<String> problem() {
        if (group.failed()) {
            return Optional.of("storing results failed; restart the process");
        }
        try {
            readers.count("SELECT 1");
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(String.valueOf(e.getMessage()).lines().findFirst().orElse("the database failed"));
        }
    }

    /** Whether storing has failed: results handed over from now on are refused. */
    public boolean failed() {
        return group.failed();
    }

    /** Lowers the stored depth of a URL saved earlier: a shorter path to it was found. */
    public void lowerDepth(long jobId, String url, int depth) throws InterruptedException {
        group.submit(new GroupWriter.Write.Depth(jobId, url, depth));
    }

    /** Waits until every result saved before this call is committed. */
    public void flush() throws InterruptedException {
        group.flush();
    }

    // ---- reads

    /**
     * Stored pages of a job, in the order they were stored or by URL (see {@link #pagesSql}); {@code status}
     * filters when not null. Bodies are left out.
     */
    public List<PageRecord> pages(long jobId, int offset, int limit, Integer status) {
        List<PageRecord> out = new ArrayList<>();
        forEachPage(jobId, offset, limit, status, false, out::add);
        return out;
    }

    /** Streams a job's pages to {@code sink} without holding them all in memory. */
    public void forEachPage(long jobId, int offset, int limit, Integer status, boolean withBody,
            Consumer<PageRecord> sink) {
        readers.stream(pagesSql(status != null, hashKey), rs -> sink.accept(Rows.page(rs, withBody)), status == null
                ? new Object[] {jobId, limit, offset} : new Object[] {jobId, status, limit, offset});
    }

    /**
     * A job's pages a slice at a time: in the order they were stored where pages are numbered so (an H2
     * database this version made, see {@link UrlKey}), else in URL order; parameters job id, [status,] limit,
     * offset. Either way H2 reads an index in order, never sorts: the order names the index's columns, both,
     * because H2 follows an index only for an {@code ORDER BY} that starts with its first column (for
     * {@code ORDER BY url} it sorted every row of the job for each slice: 2.7-3.2 s per slice of 100 on a job
     * of 200,000 rows, against 1-3 ms).
     */
    static String pagesSql(boolean byStatus, boolean hashKey) {
        return "SELECT * FROM pages WHERE job_id = ?" + (byStatus ? " AND status = ?" : "")
                + (hashKey ? " ORDER BY job_id, seq" : " ORDER BY job_id, url") + " LIMIT ? OFFSET ?";
    }

    /** Whether any stored row of the job keeps its body. */
    public boolean hasBodies(long jobId) {
        return readers.query("SELECT 1 FROM pages WHERE job_id = ? AND body IS NOT NULL FETCH FIRST 1 ROWS ONLY",
                ResultSet::next, jobId);
    }

    /** Stored rows of a job; {@code status} filters when not null. */
    public long countPages(long jobId, Integer status) {
        return status == null ? readers.count("SELECT COUNT(*) FROM pages WHERE job_id = ?", jobId)
                : readers.count("SELECT COUNT(*) FROM pages WHERE job_id = ? AND status = ?", jobId, status);
    }

    /**
     * What a job had admitted and stored, to resume it. Admissions are a log (see {@link Schema}): a URL's rows
     * fold into one, its first admission's redirects and referrer with the least depth any row gave it. Jobs of
     * earlier versions kept theirs in the frontier table, read alike.
     */
    public ResumeState resumeState(long jobId) {
        Map<String, Admitted> byUrl = new LinkedHashMap<>();
        for (String table : List.of("frontier", "admissions")) {
            readers.stream("SELECT url, depth, redirects, referrer FROM " + table + " WHERE job_id = ?", rs -> {
                Admitted row = new Admitted(jobId, rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4));
                byUrl.merge(row.url(), row, PageStore::fold);
            }, jobId);
        }
        List<Admitted> admitted = new ArrayList<>(byUrl.size());
        for (Admitted a : byUrl.values()) { // a depth fix whose admission is missing: admitted directly
            admitted.add(a.redirects() != Admitted.DEPTH_ONLY ? a : new Admitted(jobId, a.url(), a.depth(), 0, null));
        }
        admitted.sort(Comparator.comparingInt(Admitted::depth)); // shallowest first, as the frontier queues them
        Set<String> stored = new HashSet<>();
        readers.stream("SELECT url FROM pages WHERE job_id = ?", rs -> stored.add(rs.getString(1)), jobId);
        return new ResumeState(admitted, stored);
    }

    /** Two rows of the admissions log for one URL as one: the admission's details, the least depth. */
    private static Admitted fold(Admitted a, Admitted b) {
        Admitted admission = a.redirects() == Admitted.DEPTH_ONLY ? b : a;
        int depth = Math.min(a.depth(), b.depth());
        return depth == admission.depth() ? admission
                : new Admitted(admission.jobId(), admission.url(), depth, admission.redirects(), admission.referrer());
    }

    /**
     * Figures of a whole job from its stored rows: whatever processes ran it, they add up here.
     *
     * @param fetchMillis every fetch time, for latency percentiles (rows fetched at least once)
     */
    public record Tallies(long pages, long failed, long skipped, long bytes, long retries, Map<String, Long> statuses,
            Map<String, Long> failures, Map<String, Long> skips, List<Double> fetchMillis, List<Double> pageMillis,
            List<TopFailure> topFailures) {}

    /** A failure reason and how many URLs ended with it. */
    public record TopFailure(String kind, String detail, long count) {}

    public Tallies tallies(long jobId) {
        Map<String, Long> statuses = new TreeMap<>();
        Map<String, Long> failures = new TreeMap<>();
        Map<String, Long> skips = new TreeMap<>();
        long[] n = new long[5]; // pages, failed, skipped, bytes, retries
        List<Double> fetch = new ArrayList<>();
        List<Double> page = new ArrayList<>();
        readers.stream("SELECT status, failure, bytes, attempts, fetch_ms, page_ms FROM pages WHERE job_id = ?", rs -> {
            int status = rs.getInt(1);
            String failure = rs.getString(2);
            int attempts = rs.getInt(4);
            if (status > 0) {
                statuses.merge(String.valueOf(status), 1L, Long::sum);
            }
            switch (PageRecord.outcomeOf(failure)) {
                case OK -> n[0]++;
                case FAILED -> { n[1]++; failures.merge(failure, 1L, Long::sum); }
                case SKIPPED -> { n[2]++; skips.merge(failure, 1L, Long::sum); }
            }
            n[3] += rs.getInt(3);
            n[4] += Math.max(0, attempts - 1);
            if (attempts > 0) {
                fetch.add(rs.getDouble(5));
                page.add(rs.getDouble(6));
            }
        }, jobId);
        List<TopFailure> top = readers.query("SELECT failure, detail, COUNT(*) AS n FROM pages WHERE job_id = ? AND"
                + " failure IS NOT NULL AND failure NOT IN ('robots', 'not-html') GROUP BY failure, detail"
                + " ORDER BY n DESC, failure LIMIT 5", rs -> {
                    List<TopFailure> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(new TopFailure(rs.getString(1), rs.getString(2), rs.getLong(3)));
                    }
                    return rows;
                }, jobId);
        return new Tallies(n[0], n[1], n[2], n[3], n[4], statuses, failures, skips, fetch, page, top);
    }

    private interface Sql<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} on the writer's connection and commits it, on {@link #jobWrites}' thread: the caller
     * may be a thread that gets interrupted (a cancelled job's, a fetch's), and on H2 an interrupt that reaches
     * a thread in the middle of file I/O closes the database's {@code FileChannel}, and the database with it,
     * for everyone ("The database has been closed"). The caller waits for the commit uninterruptibly (the
     * write is durable when this returns, whatever interrupt came meanwhile) and keeps its interrupt.
     */
    private <T> T withWriter(Sql<T> work) {
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

    /** Writes what is queued (waiting up to 30 s), then closes every connection. Idempotent. */
    @Override
    public void close() {
        group.close(Duration.ofSeconds(30));
        jobWrites.shutdown();
        try {
            jobWrites.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writeLock.lock();
        try {
            if (!writer.isClosed()) {
                writer.close();
            }
        } catch (SQLException e) {
            // closing anyway: nothing more to do with it
        } finally {
            writeLock.unlock();
        }
        readers.close();
        synchronized (this) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // already failing
            }
        }
    }
}
