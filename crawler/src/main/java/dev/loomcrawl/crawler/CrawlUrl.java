package dev.loomcrawl.crawler;

import java.util.Optional;

/**
 * A normalised http(s) URL and the host it is limited by.
 *
 * <p>Two spellings of one page ({@code HTTP://Example.com:80/a#top} and {@code http://example.com/a})
 * become one {@code url}, so the seen-check fetches each page once. {@code hostKey} is
 * {@code host:port}: robots.txt and politeness both apply per scheme-less authority.
 *
 * @param url normalised absolute URL
 * @param host lower-case host name (an IPv6 literal keeps its brackets), without port
 * @param hostKey {@code host:port} with the effective port
 */
public record CrawlUrl(String url, String host, String hostKey) {

    /** Longest URL we accept; longer ones are almost always traps or junk. */
    static final int MAX_LENGTH = 2048;

    /** What a string is, as a link to crawl. */
    public sealed interface Check {
        /** A crawlable URL. */
        record Ok(CrawlUrl url) implements Check {}

        /** Not for a web crawler (mailto:, javascript:, ftp:, too long, credentials): silently left out. */
        record Ignored(String reason) implements Check {}

        /** An http(s) URL that cannot be fetched as written (bad port, bad host, bad syntax): worth recording. */
        record Invalid(String reason) implements Check {}
    }

    /**
     * Normalises {@code raw}, or says why it cannot be crawled.
     *
     * @throws IllegalArgumentException naming the URL when it is not an absolute, valid http(s) URL with a
     *     host, carries credentials, or is longer than {@value #MAX_LENGTH} characters
     */
    public static CrawlUrl of(String raw) {
        return switch (check(raw)) {
            case Check.Ok ok -> ok.url();
            case Check.Ignored ignored -> throw new IllegalArgumentException(ignored.reason());
            case Check.Invalid invalid -> throw new IllegalArgumentException(invalid.reason());
        };
    }

    /** Like {@link #of} but empty instead of throwing. */
    public static Optional<CrawlUrl> parse(String raw) {
        return check(raw) instanceof Check.Ok ok ? Optional.of(ok.url()) : Optional.empty();
    }

    public static Check check(String raw) {
        CrawlUrl plain = UrlNormaliser.alreadyNormal(raw);
        return plain != null ? new Check.Ok(plain) : UrlNormaliser.checkByParsing(raw);
    }

    /** Where the path of {@code url} starts, its first {@code /} after {@code ://}; -1 where it has none. */
    public static int pathStart(String url) {
        int authority = url.indexOf("://");
        return authority < 0 ? -1 : url.indexOf('/', authority + 3);
    }

    /** Where the path that starts at {@code pathStart} in {@code url} ends: at its query or fragment, or the end. */
    public static int pathEnd(String url, int pathStart) {
        for (int i = pathStart; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    /**
     * This URL as a {@link java.net.URL}, made from its parts (scheme, host, port, path and query) without
     * parsing the string again: it was normalised and checked already. Null in the one case where those parts
     * would not read back as a parse of the string reads them: a {@code ?} inside the query (the constructor
     * splits the path from the query at the last one, a parse at the first).
     */
    @SuppressWarnings("deprecation") // URL(String, String, int, String) is deprecated for unchecked input only
    public java.net.URL toUrl() {
        int slash = pathStart(url);
        String file = slash < 0 ? "/" : url.substring(slash);
        int query = file.indexOf('?');
        if (query >= 0 && file.indexOf('?', query + 1) >= 0) {
            return null;
        }
        int port = Integer.parseInt(hostKey.substring(hostKey.lastIndexOf(':') + 1));
        try {
            return new java.net.URL(url.substring(0, url.indexOf(':')), host, port, file);
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException("a checked URL is always a java.net.URL: " + url, e);
        }
    }

    /** {@code scheme://authority}: where {@code /robots.txt} and other root paths of this URL's site live. */
    public String origin() {
        int pathStart = pathStart(url);
        return pathStart < 0 ? url : url.substring(0, pathStart);
    }

    @Override
    public String toString() {
        return url;
    }
}
