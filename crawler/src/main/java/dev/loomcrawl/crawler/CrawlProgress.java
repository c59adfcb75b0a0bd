package dev.loomcrawl.crawler;

/**
 * A live snapshot of a job.
 *
 * @param queued URLs waiting in the frontier
 * @param inFlight URLs handed out and not yet ended (in pool mode, tasks waiting for a thread included)
 * @param fetching HTTP requests in flight right now
 * @param pagesPerSecond requests per second since this process started the job
 * @param recentPagesPerSecond requests per second over the last few seconds
 * @param maxPages the job's page limit, for a percentage and an ETA
 */
public record CrawlProgress(
        long jobId, String status, long pages, long failed, long skipped, long queued, long inFlight, long fetching,
        double seconds, double pagesPerSecond, double recentPagesPerSecond, int maxPages) {

    /** Stored rows: pages, failures and skips. */
    public long stored() {
        return pages + failed + skipped;
    }
}
