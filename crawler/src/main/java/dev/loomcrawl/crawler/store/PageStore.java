package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Jobs and pages in H2 (embedded, the default) or PostgreSQL, over JDBC; the SQL is shared and the few
 * differences live in {@link Dialect}.
 *
 * <p>A facade over its parts: {@link Schema} creates and migrates the tables; {@link H2Files} opens an H2
 * file; one {@link GroupWriter} thread commits crawl results in batches; {@link JobTable} writes job rows at
 * once; reads ({@link StoredCounts}, {@link ResumeState}, pages) run on pooled connections of their own
 * ({@link Readers}) and never wait for the writer.
 *
 * <p>Durability: a result is durable once the writer has committed it. On an H2 file the writer commits at
 * least every {@value #COMMIT_MILLIS} ms while results keep coming, and H2 writes each commit to the file before the
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
    private final JobTable jobs;
    private final ChangeFeed changes;
    private final PolitenessTable politeness;
    private final Readers readers;
    private final PageReads pages;
    /** Whether pages are keyed by a hash of the URL ({@link UrlKey}): H2 databases this version created. */
    private final boolean hashKey;

    private PageStore(String jdbcUrl, Dialect dialect, Connection writer, Readers readers, Duration commitEvery)
            throws SQLException {
        this.jdbcUrl = jdbcUrl;
        this.dialect = dialect;
        this.writer = writer;
        this.readers = readers;
        this.hashKey = Schema.migrate(writer, dialect);
        this.pages = new PageReads(readers, hashKey);
        writer.setAutoCommit(false);
        this.group = new GroupWriter(writer, writeLock, dialect, hashKey,
                dialect == Dialect.H2 && !H2Files.inMemory(jdbcUrl) ? commitEvery : Duration.ZERO);
        this.jobs = new JobTable(writer, writeLock, group, readers, dialect);
        this.changes = new ChangeFeed(readers, new WebhookCursors(jobs, readers, dialect));
        this.politeness = new PolitenessTable(jobs, readers);
    }

    /** Operators' settings per politeness key, and each job's politeness audit. */
    public PolitenessTable politeness() {
        return politeness;
    }

    /**
     * Opens, creating or migrating as needed, the database at {@code jdbcUrl}: {@code jdbc:h2:./data/loomcrawl},
     * {@code jdbc:h2:mem:test;DB_CLOSE_DELAY=-1}, or {@code jdbc:postgresql://host:5432/db?user=u&password=p}.
     *
     * @throws IllegalArgumentException if the URL is neither H2 nor PostgreSQL
     * @throws StoreException with a one-line reason if the database cannot be opened
     */
    public static PageStore open(String jdbcUrl) {
        return open(jdbcUrl, Duration.ofMillis(COMMIT_MILLIS));
    }

    /** Whether a database is at {@code jdbcUrl} already (one on a server or in memory is taken to be). */
    public static boolean exists(String jdbcUrl) {
        return Dialect.of(jdbcUrl) != Dialect.H2 || H2Files.exists(jdbcUrl);
    }

    /** As {@link #open(String)}, an H2 file's results committed at least every {@code commitEvery}. */
    public static PageStore open(String jdbcUrl, Duration commitEvery) {
        Dialect dialect = Dialect.of(jdbcUrl);
        String url = dialect == Dialect.H2 ? H2Files.url(jdbcUrl) : jdbcUrl;
        Connection writer = null;
        try {
            if (dialect == Dialect.H2) {
                H2Files.requireWritableFolder(jdbcUrl);
            }
            writer = DriverManager.getConnection(url, dialect == Dialect.H2 ? "sa" : null, dialect == Dialect.H2 ? "" : null);
            return new PageStore(jdbcUrl, dialect, writer, Readers.open(url, dialect), commitEvery);
        } catch (SQLException e) {
            closeQuietly(writer);
            throw new StoreException(H2Files.explain(jdbcUrl, e), e);
        }
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

    /** The pool every read of this store waits in line for (see {@link Readers}). */
    public Readers readers() {
        return readers;
    }

    /** Job rows and {@code Retry-After} windows: written at once, durable when a call returns. */
    public JobTable jobs() {
        return jobs;
    }

    // ---- crawl results: through the one writer, in order

    /**
     * Stores a URL's result together with the links it admitted and any links it skipped on sight. The
     * links are committed before (or with) the page, never after: a page that survives a crash always has
     * its links, so a resumed job misses none of them.
     */
    public void saveWithLinks(PageRecord page, List<Admitted> admitted, List<PageRecord> skipped)
            throws InterruptedException {
        saveWithLinks(page, admitted, skipped, List.of());
    }

    /** As {@link #saveWithLinks(PageRecord, List, List)}, with the page's change events (a continuous job's). */
    public void saveWithLinks(PageRecord page, List<Admitted> admitted, List<PageRecord> skipped, List<Change> changes)
            throws InterruptedException {
        List<PageRecord> pages;
        if (skipped.isEmpty()) {
            pages = List.of(page);
        } else {
            pages = new ArrayList<>(skipped.size() + 1);
            pages.addAll(skipped);
            pages.add(page);
        }
        group.submit(new GroupWriter.Write.Result(admitted, pages, changes));
    }

    /**
     * Stores a revisit of a stored URL with what it admitted and recorded on sight: its row rewritten with
     * {@code page} when the content changed (null: the row stays), and its change event (null: none).
     */
    public void saveRevisit(long jobId, String url, @Nullable PageRecord page, @Nullable Change change, List<Admitted> admitted,
            List<PageRecord> recorded) throws InterruptedException {
        group.submit(new GroupWriter.Write.Revisit(jobId, url, page, change, admitted, recorded));
    }

    /** Notes that job {@code jobId}'s {@code url} has had {@code attempts} requests and waits for another. */
    public void saveRetry(long jobId, String url, int attempts) throws InterruptedException {
        group.submit(new GroupWriter.Write.Retry(jobId, url, attempts));
    }

    /** Stores URLs admitted with no page to go with them (a job's seeds), and rows recorded with them. */
    public void saveAdmitted(List<Admitted> admitted, List<PageRecord> recorded) throws InterruptedException {
        group.submit(new GroupWriter.Write.Result(admitted, recorded, List.of()));
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
            return Optional.of(Passwords.hidden(String.valueOf(e.getMessage()).lines().findFirst().orElse("the database failed")));
        }
    }

    /** Whether results are handed over faster than they are written: the writer's queue is over half full. */
    public boolean behind() {
        return group.behind();
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

    /** A job's stored rows, bodies left out, a slice at a time ({@link PageReads#pagesSql}); a status filters. */
    public List<PageRecord> pages(long jobId, int offset, int limit, @Nullable Integer status) {
        return pages.list(jobId, offset, limit, status);
    }

    /** Streams a job's pages to {@code sink} without holding them all in memory. */
    public void forEachPage(long jobId, int offset, int limit, @Nullable Integer status, boolean withBody,
            Consumer<PageRecord> sink) {
        pages.forEach(jobId, offset, limit, status, withBody, sink);
    }

    public long countPages(long jobId, @Nullable Integer status) {
        return pages.count(jobId, status);
    }

    /** Groups of a job's pages with near-identical text (SimHashes within 3 bits); see {@link NearDuplicateGroups}. */
    public List<List<NearDuplicateGroups.Page>> nearDuplicateGroups(long jobId) {
        return NearDuplicateGroups.of(readers, jobId, hashKey);
    }

    /** The change events jobs stored (continuous jobs and recrawls). */
    public ChangeFeed changes() {
        return changes;
    }

    /** What a job had admitted and stored, to resume it (see {@link ResumeState#read}). */
    public ResumeState resumeState(long jobId) {
        return ResumeState.read(readers, jobId, false);
    }

    /** As {@link #resumeState(long)}, with each stored URL's {@link VisitHistory}: for a job that revisits its pages. */
    public ResumeState revisitState(long jobId) {
        return ResumeState.read(readers, jobId, true);
    }

    /** A job's stored rows by outcome (a grouped count: for listing jobs). */
    public StoredCounts.Outcomes outcomes(long jobId) {
        return StoredCounts.outcomes(readers, jobId);
    }

    /** Figures of a whole job from its stored rows. */
    public StoredCounts storedCounts(long jobId) {
        return StoredCounts.read(readers, jobId);
    }

    /** Writes what is queued (waiting up to 30 s), then closes every connection. Idempotent. */
    @Override
    public void close() {
        group.close(Duration.ofSeconds(30));
        jobs.close();
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
    }

    private static void closeQuietly(@Nullable Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // already failing
            }
        }
    }
}
