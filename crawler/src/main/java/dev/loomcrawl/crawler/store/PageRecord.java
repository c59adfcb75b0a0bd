package dev.loomcrawl.crawler.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One URL of a job as stored: a page, a redirect, a failure with its reason, or a URL skipped unfetched.
 *
 * @param depth links from the nearest seed (the shortest path, whatever order fetches finished in)
 * @param status HTTP status of the response, or 0 when none arrived (or nothing was requested)
 * @param contentType the response's {@code Content-Type}, or null
 * @param bytes body bytes received (decoded); for a type not stored, its declared or counted size
 * @param fetchMillis request start to last body byte of the last attempt; 0 when nothing was requested
 * @param attempts requests made for this URL (retries included); 0 when it was skipped unfetched
 * @param failure the failure kind's label ({@code timeout}, {@code robots}, ...) or null for a page
 * @param detail what went wrong, in words; or where a redirect went
 * @param thread the thread that ran the URL's task ({@code crawl-vt-12}, {@code crawl-pool-3})
 * @param referrer the page that first linked to this URL (or redirected to it); null for seeds
 * @param outlinks the page's links, normalised, in page order, in scope or not
 * @param fields what extraction rules or a page handler found, by name: a string or a list of strings
 * @param canonical the page's {@code <link rel=canonical>} target, or null
 * @param body the decoded body when the job keeps bodies, else null
 * @param pageMillis dispatch of the URL's task to its result, so time queued for a pool thread counts
 */
public record PageRecord(
        long jobId,
        String url,
        int depth,
        int status,
        String contentType,
        String title,
        int bytes,
        double fetchMillis,
        int attempts,
        String failure,
        String detail,
        Instant fetchedAt,
        String thread,
        String referrer,
        List<String> outlinks,
        Map<String, Object> fields,
        String canonical,
        byte[] body,
        double pageMillis) {

    /** Failure labels of URLs that were skipped on purpose rather than failed. */
    private static final java.util.Set<String> SKIPS = java.util.Set.of("robots", "not-html");

    public PageRecord {
        outlinks = outlinks == null ? List.of() : outlinks;
        fields = fields == null ? Map.of() : fields;
    }

    public Outcome outcome() {
        return outcomeOf(failure);
    }

    /** The outcome of a row with this failure label (null: a page). */
    public static Outcome outcomeOf(String failure) {
        return failure == null ? Outcome.OK : SKIPS.contains(failure) ? Outcome.SKIPPED : Outcome.FAILED;
    }

    public boolean ok() {
        return failure == null;
    }

    /**
     * A URL recorded on sight, never requested: a link robots.txt forbids, or one that cannot be fetched as
     * written.
     *
     * @param failure the failure kind's label ({@code robots}, {@code invalid-url})
     */
    public static PageRecord onSight(long jobId, String url, int depth, String referrer, String failure, String detail) {
        return new PageRecord(jobId, url, depth, 0, null, null, 0, 0, 0, failure, detail, java.time.Instant.now(),
                Thread.currentThread().getName(), referrer, List.of(), null, null, null, 0);
    }

    /** This record at another depth: a shorter path was found. */
    public PageRecord withDepth(int value) {
        return new PageRecord(jobId, url, value, status, contentType, title, bytes, fetchMillis, attempts, failure, detail,
                fetchedAt, thread, referrer, outlinks, fields, canonical, body, pageMillis);
    }
}
