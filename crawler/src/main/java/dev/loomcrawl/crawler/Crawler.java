package dev.loomcrawl.crawler;

import java.time.Duration;
import java.util.Collection;
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
    private final PageStore store;
    private final ConcurrentHashMap<Long, CrawlJob> jobs = new ConcurrentHashMap<>();

    public Crawler(PageStore store) {
        this.store = store;
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
        CrawlJob job = new CrawlJob(id, config, store);
        jobs.put(id, job);
        job.start();
        return job;
    }

    /** A job started by this crawler since it was created. */
    public Optional<CrawlJob> job(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    public Collection<CrawlJob> jobs() {
        return List.copyOf(jobs.values());
    }

    public PageStore store() {
        return store;
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
        }
    }
}
