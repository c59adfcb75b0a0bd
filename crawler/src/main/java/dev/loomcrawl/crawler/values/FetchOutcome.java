package dev.loomcrawl.crawler.values;

import org.jspecify.annotations.Nullable;

/**
 * One URL of a one-off multi-fetch ({@link Crawler#fetchAll}).
 *
 * @param outcome {@code ok}, {@code failed}, or {@code cancelled} (the deadline passed first)
 * @param status HTTP status, or 0 when no response arrived
 * @param title the page's title when it was HTML
 * @param failure a {@link FailureKind#label()} when failed
 * @param noindex the page asks not to be indexed (as a crawl's row says: {@code PageRecord#noindex})
 * @param content the page's main content and facts when the request asked for them and the page was HTML;
 *     else null
 */
public record FetchOutcome(String url, String outcome, int status, @Nullable String title, int bytes, double millis,
        @Nullable String failure, @Nullable String detail, boolean noindex, @Nullable PageContent content) {

    public FetchOutcome {
        title = SafeText.of(title);
    }

    /** An outcome with no page to read content from. */
    public static FetchOutcome without(String url, String outcome, int status, int bytes, double millis, @Nullable String failure,
            @Nullable String detail) {
        return new FetchOutcome(url, outcome, status, null, bytes, millis, failure, detail, false, null);
    }
}
