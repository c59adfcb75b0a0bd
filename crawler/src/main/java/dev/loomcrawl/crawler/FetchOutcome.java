package dev.loomcrawl.crawler;

/**
 * One URL of a one-off multi-fetch ({@link Crawler#fetchAll}).
 *
 * @param outcome {@code ok}, {@code failed}, or {@code cancelled} (the deadline passed first)
 * @param status HTTP status, or 0 when no response arrived
 * @param title the page's title when it was HTML
 * @param failure a {@link FailureKind#label()} when failed
 */
public record FetchOutcome(String url, String outcome, int status, String title, int bytes, double millis,
        String failure, String detail) {}
