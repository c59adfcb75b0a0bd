package dev.loomcrawl.crawler.values;

/**
 * The main content a job asks of each HTML page.
 *
 * @param maxChars most characters kept; more are cut, and the cut is said at the end
 */
public record ContentRequest(ContentFormat format, int maxChars) {
    public static final ContentRequest NONE = new ContentRequest(ContentFormat.NONE, ContentFormat.DEFAULT_MAX_CHARS);

    public boolean wanted() {
        return format != ContentFormat.NONE;
    }
}
