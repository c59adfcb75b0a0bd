package dev.loomcrawl.crawler;

import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.loomcrawl.crawler.CrawlUrl.Check;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * How a string becomes a {@link CrawlUrl}, or why it cannot: a fast path for links already in normal form,
 * else crawler-commons' normaliser and {@link URI} for the host and port, with the checks both leave out.
 */
final class UrlNormaliser {
    // crawler-commons' normaliser: scheme and host case, IDN, default ports, dot segments, duplicate
    // slashes, percent-encoding, empty paths, fragments, and query parameters sorted by name.
    private static final BasicURLNormalizer NORMALIZER = new BasicURLNormalizer();

    private UrlNormaliser() {}

    /**
     * {@code raw} when it has the shape most links on the web take and is in normal form already, else null:
     * {@code http(s)://host[:port]/path}, a lower-case DNS name whose last label starts with a letter, a port
     * that is not the scheme's default (no leading zero), and a path of unreserved characters ({@code A-Z a-z
     * 0-9 - . _ ~}) and slashes, without {@code //}, {@code /.} or {@code ./}; no query, fragment, percent sign or
     * anything else. crawler-commons' normaliser returns such a URL as it is ({@code CrawlUrlTest} checks this
     * against it on every combination of the shapes near the line), so it is taken without parsing: the
     * normaliser and {@link URI} cost 6 to 11 µs a URL under C1 alone, as short crawls run (README, "Fewer
     * passes per page").
     */
    static CrawlUrl alreadyNormal(String raw) {
        if (raw == null) {
            return null;
        }
        boolean https = raw.startsWith("https://");
        if (!https && !raw.startsWith("http://")) {
            return null;
        }
        int n = raw.length();
        if (n > CrawlUrl.MAX_LENGTH) {
            return null;
        }
        int start = https ? 8 : 7;
        int i = start;
        char previous = '.';
        for (; i < n; i++) { // host: labels of a-z 0-9 -, each starting and ending with a letter or digit
            char c = raw.charAt(i);
            if (c == '.') {
                if (previous == '.' || previous == '-') {
                    return null;
                }
            } else if (c == '-') {
                if (previous == '.') {
                    return null;
                }
            } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9')) {
                break;
            }
            previous = c;
        }
        int hostEnd = i;
        if (hostEnd == start || previous == '.' || previous == '-' || i == n) {
            return null;
        }
        int lastLabel = raw.lastIndexOf('.', hostEnd - 1) + 1;
        char top = raw.charAt(Math.max(lastLabel, start));
        if (!(top >= 'a' && top <= 'z')) {
            return null; // an IP address, or what URI might read as one
        }
        int port = -1;
        if (raw.charAt(i) == ':') {
            int digits = ++i;
            port = 0;
            while (i < n && raw.charAt(i) >= '0' && raw.charAt(i) <= '9' && i - digits < 5) {
                port = port * 10 + raw.charAt(i++) - '0';
            }
            if (i == digits || raw.charAt(digits) == '0' || port > 65_535 || port == (https ? 443 : 80)) {
                return null;
            }
        }
        if (i == n || raw.charAt(i) != '/') {
            return null;
        }
        for (previous = 0; i < n; i++) { // path
            char c = raw.charAt(i);
            boolean unreserved = c != '.' && isUnreserved(c); // a dot is allowed below, where it starts no dot segment
            if (!unreserved && !(c == '/' && previous != '/' && previous != '.') && !(c == '.' && previous != '/')) {
                return null;
            }
            previous = c;
        }
        String host = raw.substring(start, hostEnd);
        if (UrlSyntax.hostProblem(host) != null) {
            return null;
        }
        int effective = port != -1 ? port : https ? 443 : 80;
        return new CrawlUrl(raw, host, host + ":" + effective);
    }

    /** {@link CrawlUrl#check} for any string: crawler-commons' normaliser, then {@link URI} for the host and port. */
    static Check checkByParsing(String raw) {
        if (raw == null || raw.isBlank()) {
            return new Check.Ignored("URL is empty");
        }
        if (raw.length() > CrawlUrl.MAX_LENGTH) {
            return new Check.Ignored("URL is longer than " + CrawlUrl.MAX_LENGTH + " characters");
        }
        String scheme = UrlSyntax.schemeOf(raw);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return new Check.Ignored("URL must be http or https: '" + raw + "'");
        }
        if (UrlSyntax.hasUserInfo(raw)) {
            // the normaliser would silently drop them; we refuse such URLs
            return new Check.Ignored("URL must not carry credentials: '" + raw + "'");
        }
        if (!UrlSyntax.portDigitsOnly(raw)) {
            // java.net.URL, under the normaliser, reads "-1" as no port and "+80" as 80: another URL than written
            return new Check.Invalid("port must be digits (1 to 65535) in '" + UrlSyntax.printable(raw) + "'");
        }
        if (UrlSyntax.hasLoneSurrogate(raw)) {
            return new Check.Invalid("URL holds a broken Unicode character (a lone surrogate): '"
                    + UrlSyntax.printable(raw) + "'");
        }
        String normalised = UrlSyntax.isIpv6Literal(raw) ? normaliseIpv6(raw.strip())
                : NORMALIZER.filter(decodeUnreservedInPath(raw.strip()));
        if (normalised == null) {
            return new Check.Invalid("not a crawlable URL (no host or bad syntax): '" + raw + "'");
        }
        if (normalised.length() > CrawlUrl.MAX_LENGTH) {
            return new Check.Ignored("URL is longer than " + CrawlUrl.MAX_LENGTH + " characters");
        }
        try {
            URI uri = new URI(normalised);
            String host = uri.getHost();
            if (host == null || host.isEmpty()) {
                return new Check.Invalid("not a crawlable URL (no host or bad syntax): '" + raw + "'");
            }
            host = host.toLowerCase(Locale.ROOT);
            String badHost = UrlSyntax.hostProblem(host);
            if (badHost != null) {
                return new Check.Invalid("bad host name in '" + raw + "': " + badHost);
            }
            int port = uri.getPort();
            if (port == 0 || port > 65_535) {
                return new Check.Invalid("port out of range (1 to 65535) in '" + raw + "'");
            }
            int effective = port != -1 ? port : scheme.equals("https") ? 443 : 80;
            return new Check.Ok(new CrawlUrl(normalised, host, host + ":" + effective));
        } catch (URISyntaxException e) {
            return new Check.Invalid("not a crawlable URL (no host or bad syntax): '" + raw + "'");
        }
    }

    /**
     * {@code raw} with the percent-escapes of unreserved characters in its path ({@code %7E}, {@code %2d},
     * {@code %41}: {@code A-Z a-z 0-9 - . _ ~}) decoded, as RFC 3986 makes them equal and the normaliser itself
     * decodes them. Done first because crawler-commons 1.6 finds the query before it decodes the path and then
     * cuts the shorter string at the old place: {@code /%7Euser?x=1} became {@code /~user?x?1}, another URL,
     * and {@code /p%2d1/p%2d2/?q=f} threw {@code StringIndexOutOfBoundsException} (its issue #559, fixed after
     * that release). Decoded here, the normaliser has nothing left to shorten.
     */
    static String decodeUnreservedInPath(String raw) {
        int pathStart = CrawlUrl.pathStart(raw);
        if (pathStart < 0 || raw.indexOf('%', pathStart) < 0) {
            return raw;
        }
        int pathEnd = CrawlUrl.pathEnd(raw, pathStart);
        StringBuilder out = null;
        for (int i = pathStart; i < pathEnd; i++) {
            char c = raw.charAt(i);
            int decoded = c == '%' && i + 2 < pathEnd ? unreserved(raw.charAt(i + 1), raw.charAt(i + 2)) : -1;
            if (decoded >= 0) {
                if (out == null) {
                    out = new StringBuilder(raw.length()).append(raw, 0, i);
                }
                out.append((char) decoded);
                i += 2;
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? raw : out.append(raw, pathEnd, raw.length()).toString();
    }

    /** The unreserved character {@code %hi lo} stands for, or -1. */
    private static int unreserved(char hi, char lo) {
        int h = Character.digit(hi, 16);
        int l = Character.digit(lo, 16);
        if (h < 0 || l < 0) {
            return -1;
        }
        char c = (char) (h * 16 + l);
        return isUnreserved(c) ? c : -1;
    }

    /** RFC 3986's unreserved characters: {@code A-Z a-z 0-9 - . _ ~}. */
    private static boolean isUnreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                || c == '~';
    }

    /**
     * crawler-commons' normaliser refuses IPv6 literals ({@code http://[::1]:8080/}); for them, the same
     * essentials by {@link URI}: lower-case scheme and host, no default port, no dot segments, no fragment.
     */
    private static String normaliseIpv6(String raw) {
        try {
            URI uri = new URI(raw).normalize();
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || port == 80 && scheme.equals("http") || port == 443 && scheme.equals("https");
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port) + path
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
