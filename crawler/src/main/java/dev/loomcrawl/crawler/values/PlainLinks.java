package dev.loomcrawl.crawler.values;

import dev.loomcrawl.crawler.url.WebUrl;
import org.jspecify.annotations.Nullable;

/**
 * The shapes most links on the web take, resolved without the URL Standard's parser because the parser would
 * give them back as written: a root-relative path ({@code /page/3?x=1}) on an http(s) base, and an absolute URL
 * already in the crawler's form ({@code http://a.example:8080/page/3}). {@code PlainLinksTest} holds the two to
 * the parser on every combination of the shapes near the line. A page carries tens of links and a crawl
 * parses every one; this path takes about a fifth of a parse's time and allocations under C1, as crawls run.
 */
final class PlainLinks {
    private PlainLinks() {}

    /** {@code href} resolved against {@code base} when it has one of the plain shapes, else null. */
    static @Nullable CrawlUrl resolve(String href, @Nullable WebUrl base) {
        int end = href.indexOf('#');
        end = end < 0 ? href.length() : end;
        if (end == 0 || end > CrawlUrl.MAX_LENGTH) {
            return null;
        }
        char first = href.charAt(0);
        if (first == '/') {
            if (base == null || !((end == 1 || href.charAt(1) != '/') && base.username().isEmpty()
                    && base.password().isEmpty() && plainPathAndQuery(href, 0, end))) {
                return null; // not root-relative
            }
            String url = origin(base).append(href, 0, end).toString();
            return url.length() > CrawlUrl.MAX_LENGTH ? null : new CrawlUrl(url, base.host(), base.host() + ":" + base.effectivePort());
        }
        return first == 'h' ? absolute(href, end) : null;
    }

    private static StringBuilder origin(WebUrl base) {
        StringBuilder b = new StringBuilder(base.scheme().length() + base.host().length() + 64);
        b.append(base.scheme()).append("://").append(base.host());
        return base.port() == -1 ? b : b.append(':').append(base.port());
    }

    /** {@code http(s)://host[:port]/path[?query]} with a lower-case DNS name, no default port, a plain path. */
    private static @Nullable CrawlUrl absolute(String href, int end) {
        boolean https = href.startsWith("https://");
        if (!https && !href.startsWith("http://")) {
            return null;
        }
        int start = https ? 8 : 7;
        int i = start;
        int lastLabel = start;
        for (; i < end; i++) { // a-z 0-9 - . : what the parser returns as it is, unless the last label is a number
            char c = href.charAt(i);
            if (c == '.') {
                lastLabel = i + 1;
            } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                break;
            }
        }
        if (i == start || i == end || lastLabel == i || !(href.charAt(lastLabel) >= 'a' && href.charAt(lastLabel) <= 'z')
                || href.regionMatches(start, "xn--", 0, 4) || href.lastIndexOf(".xn--", i) >= start) {
            return null; // no host, no path, an IPv4 address or a name the parser would rewrite
        }
        String host = href.substring(start, i);
        int none = WebUrl.defaultPort(https ? "https" : "http");
        int port = none;
        if (href.charAt(i) == ':') {
            int digits = ++i;
            port = 0;
            while (i < end && href.charAt(i) >= '0' && href.charAt(i) <= '9' && i - digits < 5) {
                port = port * 10 + href.charAt(i++) - '0';
            }
            if (i == digits || href.charAt(digits) == '0' || port > 65_535 || port == none) {
                return null;
            }
        }
        if (i == end || href.charAt(i) != '/' || i + 1 < end && href.charAt(i + 1) == '/'
                || !plainPathAndQuery(href, i, end)) {
            return null;
        }
        return new CrawlUrl(end == href.length() ? href : href.substring(0, end), host, host + ":" + port);
    }

    /**
     * Whether {@code href[from, end)}, a path from its first slash and an optional query, is kept by the parser
     * as written: printable ASCII the path (or query) percent-encode set leaves alone, no backslash, no dot
     * segment, no escape in the path that could spell a dot.
     */
    private static boolean plainPathAndQuery(String href, int from, int end) {
        boolean query = false;
        for (int i = from; i < end; i++) {
            char c = href.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '\\' || c == '"' || c == '<' || c == '>') {
                return false;
            }
            if (query) {
                if (c == '\'') {
                    return false;
                }
            } else if (c == '?') {
                query = true;
            } else if (c == '^' || c == '`' || c == '{' || c == '}' || c == '%'
                    || c == '.' && href.charAt(i - 1) == '/' && (i + 1 == end || ".?/".indexOf(href.charAt(i + 1)) >= 0)) {
                return false;
            }
        }
        return true;
    }
}
