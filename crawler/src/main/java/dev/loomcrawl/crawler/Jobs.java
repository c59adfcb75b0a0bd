package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.CrawlConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where a service starts, cancels and reports crawl jobs: a {@link Crawler} alone, or a {@code cluster.ClusterNode}
 * around one, which shares its jobs with the other processes on the same PostgreSQL database.
 */
public interface Jobs {

    /** Starts a job; it runs in the background. */
    CrawlJob start(CrawlConfig config);

    /**
     * Cancels a job: durable when this returns, then stopped. Whether it was running or queued; false if it
     * had ended (or never existed).
     */
    boolean cancel(long id);

    /** A job as reported: live if this process runs it, else as stored. */
    Optional<JobReport> report(long id);

    /** Jobs, newest first, as reported. */
    List<JobReport> reports(int offset, int limit);

    /**
     * Graceful stop: running jobs dispatch nothing more, fetches in progress get up to {@code grace} to
     * finish and be stored, and the jobs stay unfinished, to go on at the next start.
     */
    void suspend(Duration grace) throws InterruptedException;

    /** Cancels this process's own jobs (durably) and waits up to {@code grace} for them to end. */
    void shutdown(Duration grace) throws InterruptedException;

    /**
     * Suspends {@code running} and waits up to {@code grace} for them to end; whatever is still running after
     * that is interrupted (it stays 'running' in the store; what was in flight is fetched again).
     */
    static void suspendAll(List<CrawlJob> running, Duration grace) throws InterruptedException {
        running.forEach(CrawlJob::suspend);
        long deadline = System.nanoTime() + grace.toNanos();
        for (CrawlJob job : running) {
            if (!job.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                job.suspendNow();
                job.await(Duration.ofSeconds(5));
            }
        }
    }
}
