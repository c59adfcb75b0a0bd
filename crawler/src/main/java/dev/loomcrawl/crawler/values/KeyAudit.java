package dev.loomcrawl.crawler.values;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One politeness key's figures in a job's audit (what its requests did to the servers of that key).
 *
 * @param key the politeness key
 * @param requests requests sent
 * @param answered requests that got an answer (any status)
 * @param errors answers 5xx or 429
 * @param maxInFlight the most of this job's requests in flight at once
 * @param shortestGapMillis the shortest time between two requests starting (null: fewer than two)
 * @param crawlDelayMillis the {@code Crawl-delay} its robots.txt asked (the longest, for a key of several hosts; null: none)
 * @param retryAfterWindows {@code Retry-After} windows the server asked for
 * @param retryAfterSeconds their length, together
 * @param requestsInRetryAfter requests started inside a window (a politeness violation; 0 expected)
 * @param robotsDisallowed URLs left unfetched because robots.txt disallows them
 * @param requestsDisallowed requests to a URL robots.txt disallows (a violation; 0 expected)
 * @param firstRequest when the first request started
 * @param lastRequest when the last one did
 */
public record KeyAudit(String key, long requests, long answered, long errors, int maxInFlight,
        @Nullable Double shortestGapMillis, @Nullable Long crawlDelayMillis, int retryAfterWindows, double retryAfterSeconds,
        long requestsInRetryAfter, long robotsDisallowed, long requestsDisallowed, @Nullable Instant firstRequest,
        @Nullable Instant lastRequest) {}
