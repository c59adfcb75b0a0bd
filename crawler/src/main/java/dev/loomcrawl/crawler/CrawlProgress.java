package dev.loomcrawl.crawler;

/**
 * A live snapshot of a job.
 *
 * @param queued URLs waiting in the frontier
 * @param inFlight URLs handed to the executor and not yet finished (queued pool tasks included)
 * @param fetching fetches holding a host permit right now
 */
public record CrawlProgress(
        long jobId, String status, long pages, long failed, long queued, long inFlight, long fetching,
        double seconds, double pagesPerSecond) {

    public long stored() {
        return pages + failed;
    }
}
