package dev.loomcrawl.crawler;

import java.time.Instant;

/**
 * One fetched URL as stored: a page, a redirect, or a failure with its reason.
 *
 * @param status HTTP status, or 0 when no response arrived
 * @param failure {@link FailureKind#label()} if the fetch failed, else null
 * @param detail what went wrong, in words (null when nothing did)
 * @param bytes body bytes read
 * @param textLength characters of visible text
 * @param fetchMillis request start to last body byte (of the last attempt)
 * @param attempts fetch attempts made (retries after connect errors, resets, 5xx and 429 included)
 * @param thread the thread that fetched it ({@code crawl-vt-12}, {@code crawl-pool-3})
 */
public record PageRecord(
        long jobId,
        String url,
        int depth,
        int status,
        String contentType,
        String title,
        int bytes,
        int textLength,
        double fetchMillis,
        int attempts,
        String failure,
        String detail,
        Instant fetchedAt,
        String thread) {

    public boolean failed() {
        return failure != null;
    }
}
