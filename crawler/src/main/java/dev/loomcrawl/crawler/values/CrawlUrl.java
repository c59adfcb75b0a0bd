package dev.loomcrawl.crawler.values;

import dev.loomcrawl.crawler.url.WebUrl;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An http(s) URL as the crawler keeps it, and the host it is limited by.
 *
 * <p>A URL is what a browser makes of the string (the WHATWG URL Standard, {@link WebUrl}) without its
 * fragment: two spellings of one page ({@code HTTP://Example.com:80/a#top}, {@code http://example.com/a}; a host
 * {@code 2130706433} and {@code 127.0.0.1}) become one {@code url}, so the seen-check fetches each page once.
 * Nothing else is rewritten: the path, its percent-escapes and the query are kept as the browser sends them.
 * {@code hostKey} is {@code host:port}: robots.txt and politeness both apply per scheme-less authority.
 *
 * @param url the URL, absolute, without fragment
 * @param host the host in its one spelling (an IPv6 literal keeps its brackets), without port
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

        /** Not a URL at all, as the URL Standard says (a bad host, port or IPv6 address), or port 0. */
        record Invalid(String reason) implements Check {}
    }

    /**
     * {@code raw}, an absolute URL, as the crawler keeps it.
     *
     * @throws IllegalArgumentException naming the URL when it is not an absolute, valid http(s) URL, carries
     *     credentials, or is longer than {@value #MAX_LENGTH} characters
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

    /** What {@code raw}, an absolute URL, is to the crawler. */
    public static Check check(@Nullable String raw) {
        if (raw == null || raw.isBlank()) {
            return new Check.Ignored("URL is empty");
        }
        return check(raw, null);
    }

    /**
     * What {@code href} is to the crawler as a link on a page whose base URL is {@code base} (a page's URL, or
     * its {@code <base href>}): the one place where a link, a redirect's {@code Location}, a sitemap's entry or a
     * seed becomes a URL to crawl, or none.
     */
    public static Check check(String href, @Nullable WebUrl base) {
        CrawlUrl plain = PlainLinks.resolve(href, base);
        if (plain != null) {
            return new Check.Ok(plain);
        }
        if (href.length() > MAX_LENGTH) {
            return new Check.Ignored("URL is longer than " + MAX_LENGTH + " characters");
        }
        return switch (WebUrl.parse(href, base)) {
            case WebUrl.Parse.Ok ok -> of(ok.url());
            case WebUrl.Parse.OtherScheme other -> new Check.Ignored("URL must be http or https: '"
                    + printable(href) + "'");
            case WebUrl.Parse.Failure failure -> new Check.Invalid("not a valid URL ("
                    + failure.reason() + "): '" + printable(href) + "'");
        };
    }

    /** The crawler's policy on a valid URL: no credentials, not too long, a port that can be connected to. */
    private static Check of(WebUrl web) {
        if (!web.username().isEmpty() || !web.password().isEmpty()) {
            // never repeated, not even in an error: the password is someone's secret
            return new Check.Ignored("URL must not carry credentials: '" + web.scheme() + "://…@" + web.host() + "/…'");
        }
        String url = web.hrefWithoutFragment();
        if (url.length() > MAX_LENGTH) {
            return new Check.Ignored("URL is longer than " + MAX_LENGTH + " characters");
        }
        if (web.port() == 0) {
            return new Check.Invalid("port 0 cannot be connected to: '" + url + "'");
        }
        return new Check.Ok(new CrawlUrl(url, web.host(), web.host() + ":" + web.effectivePort()));
    }

    /** This URL as the URL Standard's parse of it, to resolve links against. */
    public WebUrl web() {
        return ((WebUrl.Parse.Ok) WebUrl.parse(url)).url();
    }

    /**
     * {@code s} for an error message: a password in it hidden, control characters and lone surrogates written as
     * escapes.
     */
    private static String printable(String s) {
        s = Passwords.hidden(s);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
                b.append(c).append(s.charAt(++i));
            } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
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
    public java.net.@Nullable URL toUrl() {
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

    /**
     * This URL as a {@link java.net.URI}, for the HTTP client. The URL Standard leaves a few characters as they
     * are that {@code java.net.URI} (RFC 2396) refuses: {@code | [ ] ^ ` { } \} in a path or query, and a
     * {@code %} not followed by two hex digits. They are percent-encoded here, the one place the request line
     * may differ from a browser's; servers decode both spellings alike.
     */
    public java.net.URI toUri() {
        int from = pathStart(url);
        StringBuilder out = null;
        for (int i = Math.max(from, 0); i < url.length(); i++) {
            char c = url.charAt(i);
            boolean badPercent = c == '%' && !(i + 2 < url.length() && isHex(url.charAt(i + 1)) && isHex(url.charAt(i + 2)));
            if (badPercent || "|[]^`{}\\".indexOf(c) >= 0) {
                if (out == null) {
                    out = new StringBuilder(url.length() + 8).append(url, 0, i);
                }
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else if (out != null) {
                out.append(c);
            }
        }
        return java.net.URI.create(out == null ? url : out.toString());
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
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
