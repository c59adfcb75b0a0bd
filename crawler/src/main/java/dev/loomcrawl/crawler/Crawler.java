package dev.loomcrawl.crawler;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's front door: start crawl jobs against one {@link PageStore}, find them while they run.
 *
 * <pre>{@code
 * try (PageStore store = PageStore.open("jdbc:h2:./data/loomcrawl");
 *      Crawler crawler = new Crawler(store)) {
 *     CrawlJob job = crawler.start(CrawlConfig.builder().seed("https://example.com/").build());
 *     CrawlSummary summary = job.awaitSummary();
 * }
 * }</pre>
 */
public final class Crawler implements AutoCloseable {
    /** Per-host limit of {@link #fetchAll}, across all its calls. */
    public static final int FETCH_PER_HOST = 8;

    private final PageStore store;
    private final ConcurrentHashMap<Long, CrawlJob> jobs = new ConcurrentHashMap<>();
    private final CrawlTotals totals = new CrawlTotals();
    private final HostLimiter fetchLimiter = new HostLimiter(FETCH_PER_HOST);
    private final Fetcher fetcher;

    public Crawler(PageStore store) {
        this.store = store;
        CrawlConfig defaults = CrawlConfig.builder().seed("http://localhost/").build();
        this.fetcher = new Fetcher(defaults);
    }

    /** Starts a job; it runs in the background. */
    public CrawlJob start(CrawlConfig config) {
        return start(config, null);
    }

    /**
     * Starts a job; it runs in the background.
     *
     * @param spec stored with the job as given (the API keeps the request's JSON there)
     */
    public CrawlJob start(CrawlConfig config, String spec) {
        long id = store.createJob(config.mode(), config.poolSize(), spec);
        CrawlJob job = new CrawlJob(id, config, store, totals, null, this::forget);
        jobs.put(id, job);
        job.start();
        return job;
    }

    /**
     * Resumes a job a stopped process left unfinished: what it stored stays, what it had admitted but
     * not stored (in flight at the stop included) is fetched, each URL once.
     */
    public CrawlJob resume(long id, CrawlConfig config) {
        CrawlJob job = new CrawlJob(id, config, store, totals, store.resumeState(id), this::forget);
        jobs.put(id, job);
        job.start();
        return job;
    }

    /**
     * A job of this crawler that is still running. Ended jobs are dropped (with their frontiers): their
     * final state is in the {@link PageStore}, and a long-running server must not hold every job it ran.
     */
    public Optional<CrawlJob> job(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    private void forget(CrawlJob job) {
        jobs.remove(job.id(), job);
    }

    public PageStore store() {
        return store;
    }

    /** Figures across all jobs and fetches of this crawler. */
    public CrawlTotals totals() {
        return totals;
    }

    /**
     * Fetches every URL at once, one virtual thread each, at most {@value #FETCH_PER_HOST} per host, and
     * returns when all are done or {@code deadline} has passed; unfinished fetches are cancelled then.
     * Results are in the order of {@code urls}.
     */
    public List<FetchOutcome> fetchAll(List<CrawlUrl> urls, Duration deadline) throws InterruptedException {
        return FetchBatch.run(fetcher, fetchLimiter, totals, urls, deadline);
    }

    /** Hosts with the most permits in use right now, across running jobs. */
    public java.util.Map<String, Integer> busiestHosts(int limit) {
        java.util.Map<String, Integer> all = new java.util.HashMap<>(fetchLimiter.busiest(limit));
        for (CrawlJob job : jobs.values()) {
            if (!job.status().finished()) {
                job.busiestHosts(limit).forEach((host, n) -> all.merge(host, n, Integer::sum));
            }
        }
        return all.entrySet().stream()
                .sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .collect(java.util.stream.Collectors.toMap(java.util.Map.Entry::getKey, java.util.Map.Entry::getValue,
                        (a, b) -> a, java.util.LinkedHashMap::new));
    }

    /**
     * Graceful stop: running jobs dispatch nothing more, fetches in progress get up to {@code grace} to
     * finish and be stored, and the jobs stay unfinished in the database, to resume at the next start.
     * Whatever is still running after {@code grace} is interrupted.
     */
    public void suspend(Duration grace) throws InterruptedException {
        jobs.values().forEach(CrawlJob::suspend);
        long deadline = System.nanoTime() + grace.toNanos();
        for (CrawlJob job : jobs.values()) {
            if (!job.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                job.cancel();
                job.await(Duration.ofSeconds(5));
            }
        }
    }

    /** Cancels running jobs and waits up to {@code grace} for them to end. */
    public void shutdown(Duration grace) throws InterruptedException {
        jobs.values().forEach(CrawlJob::cancel);
        long deadline = System.nanoTime() + grace.toNanos();
        for (CrawlJob job : jobs.values()) {
            job.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    @Override
    public void close() {
        try {
            shutdown(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            fetcher.close();
        }
    }
}
