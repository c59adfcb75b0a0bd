package dev.loomcrawl.crawler.values;

/**
 * The main content a job asks of each HTML page.
 *
 * @param maxChars most characters kept; more are cut, and the cut is said at the end
 * @param ignoreNoindex keep the content of a page that asks not to be indexed ({@code noindex}) too; by
 *     default its row says so and keeps none
 */
public record ContentRequest(ContentFormat format, int maxChars, boolean ignoreNoindex) {
    public static final ContentRequest NONE = new ContentRequest(ContentFormat.NONE, ContentFormat.DEFAULT_MAX_CHARS);

    /** Content in {@code format}, none of a {@code noindex} page's. */
    public ContentRequest(ContentFormat format, int maxChars) {
        this(format, maxChars, false);
    }

    public boolean wanted() {
        return format != ContentFormat.NONE;
    }
}
