package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.HostNames;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.Revisits;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.FetchOutcome;
import dev.loomcrawl.crawler.values.FetchRequest;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.PageHandler;
import dev.loomcrawl.crawler.values.ProcessStats;
import dev.loomcrawl.crawler.values.StoredListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The engine's front door: start, resume, suspend and cancel crawl jobs against one {@link Database},
 * see them and the process's figures, and fetch URLs one-off.
 *
 * <pre>{@code
 * try (Database db = Database.open("jdbc:h2:./data/loomcrawl");
 *      Crawler crawler = new Crawler(db)) {
 *     CrawlJob job = crawler.start(CrawlConfig.builder().seed("https://example.com/").build());
 *     JobSummary summary = job.awaitSummary();
 * }
 * }</pre>
 *
 * <p>Politeness is the process's, not a job's: every job and every one-off fetch of this crawler shares
 * one set of per-host permits ({@link CrawlerOptions#perHost}), and a host resting after a {@code Retry-After}
 * rests for all of them.
 */
public final class Crawler implements Jobs, AutoCloseable {
    private final Engine engine;
    private final Database database;
    private final CrawlerOptions options;
    private final HostControl hosts;
    private final RunningJobs jobs;
    private final FetchBatch oneOff;

    public Crawler(Database database) {
        this(database, CrawlerOptions.DEFAULTS);
    }

    public Crawler(PageStore store) {
        this(Database.of(store), CrawlerOptions.DEFAULTS);
    }

    public Crawler(PageStore store, CrawlerOptions options) {
        this(Database.of(store), options);
    }

    public Crawler(Database database, CrawlerOptions options) {
        PageStore store = database.store();
        this.database = database;
        this.options = options;
        this.engine = Engine.open(store, options);
        this.jobs = new RunningJobs();
        this.hosts = new HostControl(engine.gates(), store, jobs::view);
        this.oneOff = new FetchBatch(engine, options.politenessKey());
        hosts.reload();
    }

    /**
     * Why {@code host} must not be fetched on a crawl that refuses private addresses, or null: an address literal
     * that is private, or a name whose answer holds only private addresses (for checking a webhook before it is
     * ever called).
     */
    public static @Nullable String privateAddress(String host) {
        return HostNames.privateAddress(host);
    }

    /** The database this crawler crawls into. */
    public Database database() {
        return database;
    }

    public PageStore store() {
        return engine.store();
    }

    /**
     * Sees every row any job of this process stores, on the task's thread, after the job's own listener:
     * for process-wide figures such as metrics. It must be quick and must not block.
     */
    public void observe(StoredListener observer) {
        engine.observers().add(observer);
    }

    public CrawlerOptions options() {
        return options;
    }

    /** The process's per-host permits and rests, shared by every job and one-off fetch. */
    public HostGates gates() {
        return engine.gates();
    }

    /** The process's running counters, every job together. */
    public Tally totals() {
        return engine.totals();
    }

    /**
     * Runs the share of a job that other processes run too, its URLs from {@code frontier}: this process
     * neither resumes nor cancels it on its own ({@link #shutdown} suspends it). {@code onEnd} is told when
     * the share ends here; {@code share} names this process's part (its figures are kept under that name).
     */
    public CrawlJob runShare(long id, String share, CrawlConfig config, Frontier frontier, Consumer<CrawlJob> onEnd) {
        return jobs.launch(new CrawlJob(engine, JobStart.share(engine, id, share, config, frontier), job -> {
            jobs.forget(job);
            onEnd.accept(job);
        }));
    }

    @Override
    public CrawlJob start(CrawlConfig config) {
        return start(config, Hooks.NONE);
    }

    /** Starts a job whose fetched pages also go to {@code handler}; see {@link PageHandler}. */
    public CrawlJob start(CrawlConfig config, PageHandler handler) {
        return start(config, new Hooks(handler, null));
    }

    /** Starts a job with your hooks; see {@link Hooks}. */
    public CrawlJob start(CrawlConfig config, Hooks hooks) {
        return jobs.launch(new CrawlJob(engine, JobStart.fresh(engine, config, hooks), jobs::forget));
    }

    /**
     * Resumes a job a stopped process left unfinished, from its own stored config: what it stored stays,
     * what it had admitted but not stored (in flight at the stop included) is fetched, each URL once.
     *
     * @throws IllegalArgumentException if there is no such job or it has ended
     */
    public CrawlJob resume(long id, Hooks hooks) {
        Optional<CrawlJob> live = jobs.get(id);
        if (live.isPresent()) {
            return live.get();
        }
        JobRow row = engine.store().jobs().find(id).orElseThrow(() -> new IllegalArgumentException("no job " + id));
        if (!row.unfinished()) {
            throw new IllegalArgumentException("job " + id + " has ended (" + row.status() + "): nothing to resume");
        }
        CrawlConfig config = ConfigCodec.fromJson(row.config());
        return jobs.launch(new CrawlJob(engine, JobStart.again(engine, id, config, hooks, Revisits.of(config)),
                jobs::forget));
    }

    /**
     * Visits every stored URL of an ended job once more, conditionally, and ends: each visit's change event is
     * stored ({@code unchanged}, {@code changed}, {@code moved}, {@code gone}), a changed page's row is rewritten,
     * and links new on a changed page are crawled as usual (each yields {@code new}). For cron users: a job
     * crawled once, revisited on a schedule of theirs.
     *
     * @throws IllegalArgumentException if there is no such job, it is unfinished (resume it), or a cluster's
     */
    public CrawlJob recrawl(long id, Hooks hooks) {
        JobRow row = engine.store().jobs().find(id).orElseThrow(() -> new IllegalArgumentException("no job " + id));
        if (jobs.get(id).isPresent() || row.unfinished()) {
            throw new IllegalArgumentException("job " + id + " is " + row.status() + ": resume it instead"
                    + " (a continuous job revisits its pages by itself)");
        }
        if (row.cluster()) {
            throw new IllegalArgumentException("job " + id + " is a cluster job: recrawl runs on one process only");
        }
        return jobs.launch(new CrawlJob(engine, JobStart.again(engine, id, ConfigCodec.fromJson(row.config()), hooks,
                Revisits.once()), jobs::forget));
    }

    public CrawlJob resume(long id) {
        return resume(id, Hooks.NONE);
    }

    /**
     * Resumes every job a stopped process left queued or running. A job whose stored config cannot be read
     * any more is marked failed, saying why, rather than left to block every start.
     */
    public List<Long> resumeUnfinished() {
        List<Long> resumed = new ArrayList<>();
        for (JobRow row : engine.store().jobs().unfinished()) {
            if (row.cluster()) {
                continue; // a shared job belongs to the processes sharing it, not to one process's start
            }
            try {
                resume(row.id());
                resumed.add(row.id());
            } catch (ConfigException e) {
                engine.store().jobs().update(row.id(), JobStatus.FAILED.label(),
                        "{\"error\":\"cannot resume: unreadable job config: " + e.getMessage().replace("\"", "'") + "\"}");
            }
        }
        return resumed;
    }

    /** The process's politeness keys: what is in flight and waiting, operators' settings, jobs' audits. */
    public HostControl hosts() {
        return hosts;
    }

    /** A job this crawler is running; an ended one's final state is in the {@link PageStore}. */
    public Optional<CrawlJob> job(long id) {
        return jobs.get(id);
    }

    /** Cancels a job: durable when this returns (a process killed right after does not resume it). */
    @Override
    public boolean cancel(long id) {
        boolean wasUnfinished = engine.store().jobs().cancel(id);
        Optional<CrawlJob> live = jobs.get(id).filter(job -> !job.status().finished());
        if (live.isPresent()) {
            live.get().cancel();
            return true;
        }
        return wasUnfinished;
    }

    @Override
    public Optional<JobReport> report(long id) {
        return engine.store().jobs().find(id).map(this::report);
    }

    @Override
    public List<JobReport> reports(int offset, int limit) {
        return engine.store().jobs().list(offset, limit).stream().map(this::report).toList();
    }

    /** A job as its row and, while it runs here, its live figures show it. */
    public JobReport report(JobRow row) {
        return JobReport.of(row, jobs.get(row.id()).orElse(null), engine.store());
    }

    /**
     * Fetches every URL of {@code request} at once, one virtual thread each, under the process's per-host
     * permits (and each host's robots.txt unless the request says otherwise), and returns when all are done or
     * the deadline has passed; unfinished fetches are cancelled then. Results are in the order of the URLs.
     */
    public List<FetchOutcome> fetchAll(FetchRequest request) throws InterruptedException {
        return oneOff.fetchAll(request);
    }

    /** The whole process's figures, every job and one-off fetch together. */
    public ProcessStats stats() {
        return engine.stats(jobs.size());
    }

    /** Running jobs of this process. */
    public List<CrawlJob> running() {
        return jobs.snapshot();
    }

    /** Whatever still runs stays unfinished in the store, to resume at the next start (see {@link Jobs#suspend}). */
    @Override
    public void suspend(Duration grace) throws InterruptedException {
        Jobs.suspendAll(jobs.snapshot(), grace);
    }

    /**
     * Cancels running jobs (durably) and waits up to {@code grace} for them to end. A shared job is not this
     * process's to cancel: its share is suspended, and the other processes carry on.
     */
    @Override
    public void shutdown(Duration grace) throws InterruptedException {
        List<CrawlJob> running = jobs.snapshot();
        running.stream().filter(CrawlJob::cluster).forEach(CrawlJob::suspend);
        running.stream().filter(job -> !job.cluster()).forEach(job -> cancel(job.id()));
        long deadline = System.nanoTime() + grace.toNanos();
        for (CrawlJob job : running) {
            job.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    /** Suspends whatever still runs (it stays resumable), then lets go of the HTTP clients and samplers. */
    @Override
    public void close() {
        try {
            suspend(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            jobs.close();
            oneOff.close();
            engine.close();
        }
    }
}
