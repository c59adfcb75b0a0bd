package dev.loomcrawl.crawler.values;

import java.util.Map;

/**
 * A live snapshot of a job.
 *
 * @param queued URLs waiting in the frontier
 * @param due of those, the URLs whose time has come (the others wait for a retry's backoff or, on a continuous
 *     job, for their next visit)
 * @param inFlight URLs handed out and not yet ended (a pool job takes one only when a thread is free)
 * @param fetching HTTP requests in flight right now
 * @param pagesPerSecond requests per second since this process started the job
 * @param recentPagesPerSecond requests per second over the last few seconds
 * @param maxPages the job's page limit, for a percentage and an ETA
 * @param continuous the job revisits its pages and never ends by itself: it has no ETA and no percentage; its
 *     progress is {@code due} and the revisits' {@code changes}
 * @param failures failures by kind: of this process's run while the job runs, of the whole job once it ended
 */
public record JobProgress(
        long jobId, String status, long pages, long failed, long skipped, long queued, long due, long inFlight,
        long fetching,
        double seconds, double pagesPerSecond, double recentPagesPerSecond, int maxPages, boolean continuous,
        Map<String, Long> failures, Map<String, Long> changes) {

    /** Stored rows: pages, failures and skips. */
    public long stored() {
        return pages + failed + skipped;
    }
}
