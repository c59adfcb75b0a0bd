package dev.loomcrawl.crawler;

/** What one HTTP exchange produced. A failed fetch is a value, not an exception. */
sealed interface FetchResult {

    /** Fetch time in nanoseconds, request start to last body byte. */
    long nanos();

    /**
     * A response worth keeping: an HTML 2xx page (with its body) or a redirect (with its target).
     *
     * @param location the {@code Location} header of a 3xx, else null
     */
    record Fetched(int status, String contentType, byte[] body, String location, long nanos) implements FetchResult {}

    /**
     * @param status the HTTP status if a response arrived, else 0
     * @param retryAfter the server's {@code Retry-After}, if it sent one
     */
    record Failed(FailureKind kind, String detail, int status, String contentType, long nanos, java.time.Duration retryAfter)
            implements FetchResult {
        Failed(FailureKind kind, String detail, int status, String contentType, long nanos) {
            this(kind, detail, status, contentType, nanos, null);
        }
    }
}
