package dev.loomcrawl.crawler.url;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The URL Standard's basic URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser), its states as
 * methods, for what a crawler can fetch: an input whose scheme is http or https, or none (then relative to an
 * http(s) base). Any other scheme is reported by name and parsed no further. Followed step by step, so that
 * {@code UrlStandardTest} can hold it to the standard's own test data.
 */
final class UrlParser {
    private final String in;
    private final int n;
    private final @Nullable WebUrl base;

    private String scheme = "";
    private String username = "";
    private String password = "";
    private String host = "";
    private int port = -1;
    private final StringBuilder path = new StringBuilder();
    private @Nullable String query;
    private @Nullable String fragment;

    private UrlParser(String in, @Nullable WebUrl base) {
        this.in = in;
        this.n = in.length();
        this.base = base;
    }

    static WebUrl.Parse parse(String input, @Nullable WebUrl base) {
        UrlParser parser = new UrlParser(clean(input), base);
        try {
            return parser.run();
        } catch (InvalidUrlException e) {
            return new WebUrl.Parse.Failure(String.valueOf(e.getMessage()));
        }
    }

    /** Leading and trailing C0 controls and spaces removed, and every tab and newline. */
    private static String clean(String input) {
        int start = 0;
        int end = input.length();
        while (start < end && input.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && input.charAt(end - 1) <= ' ') {
            end--;
        }
        String s = input.substring(start, end);
        if (s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\t' && c != '\n' && c != '\r') {
                out.append(c);
            }
        }
        return out.toString();
    }

    private WebUrl.Parse run() {
        int p = schemeEnd();
        if (p < 0) { // no scheme state
            if (base == null) {
                throw new InvalidUrlException("a relative URL without a base");
            }
            scheme = base.scheme();
            relative(base, 0);
        } else {
            scheme = in.substring(0, p).toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                return new WebUrl.Parse.OtherScheme(scheme);
            }
            p++;
            boolean slashes = in.startsWith("//", p);
            if (base != null && base.scheme().equals(scheme) && !slashes) {
                relative(base, p); // special relative or authority state: "http:foo" is relative to an http base
            } else {
                authority(p + (slashes ? 2 : 0));
            }
        }
        return new WebUrl.Parse.Ok(new WebUrl(scheme, username, password, host, port, path.toString(), query, fragment));
    }

    /** Where the scheme's colon is, or -1 when the input does not start with a scheme. */
    private int schemeEnd() {
        if (n == 0 || !isAlpha(in.charAt(0))) {
            return -1;
        }
        for (int i = 1; i < n; i++) {
            char c = in.charAt(i);
            if (c == ':') {
                return i;
            }
            if (!(isAlpha(c) || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
                return -1;
            }
        }
        return -1;
    }

    /** The relative state, at {@code p}, with an http(s) base. */
    private void relative(WebUrl b, int p) {
        if (p < n && isSlash(in.charAt(p))) { // relative slash state
            if (p + 1 < n && isSlash(in.charAt(p + 1))) {
                authority(p + 2);
                return;
            }
            copyAuthority(b);
            path(p + 1);
            return;
        }
        copyAuthority(b);
        path.append(b.path());
        if (p == n) {
            query = b.query();
        } else if (in.charAt(p) == '?') {
            query(p + 1);
        } else if (in.charAt(p) == '#') {
            query = b.query();
            fragment(p + 1);
        } else {
            shorten();
            path(p);
        }
    }

    private void copyAuthority(WebUrl b) {
        username = b.username();
        password = b.password();
        host = b.host();
        port = b.port();
    }

    /**
     * The special authority ignore slashes, authority, host and port states, from {@code p}: user info before
     * the last {@code @}, the host, the port; then the path.
     */
    private void authority(int p) {
        while (p < n && isSlash(in.charAt(p))) {
            p++;
        }
        int end = p;
        while (end < n && "/\\?#".indexOf(in.charAt(end)) < 0) {
            end++;
        }
        int at = in.lastIndexOf('@', end - 1);
        int hostStart = p;
        if (at >= p) {
            int colon = in.indexOf(':', p);
            int userEnd = colon >= 0 && colon < at ? colon : at;
            StringBuilder b = new StringBuilder();
            PercentEncoding.USERINFO.append(b, in, p, userEnd);
            username = b.toString();
            b.setLength(0);
            if (userEnd < at) {
                PercentEncoding.USERINFO.append(b, in, userEnd + 1, at);
            }
            password = b.toString();
            hostStart = at + 1;
            if (hostStart == end) {
                throw new InvalidUrlException("credentials without a host");
            }
        }
        int colon = -1;
        boolean bracket = false;
        for (int i = hostStart; i < end && colon < 0; i++) {
            char c = in.charAt(i);
            bracket = c == '[' || bracket && c != ']';
            if (c == ':' && !bracket) {
                colon = i;
            }
        }
        int hostEnd = colon < 0 ? end : colon;
        if (hostEnd == hostStart) {
            throw new InvalidUrlException("no host");
        }
        host = Hosts.parse(in.substring(hostStart, hostEnd));
        if (colon >= 0) {
            port(colon + 1, end);
        }
        path(end < n && isSlash(in.charAt(end)) ? end + 1 : end); // path start state
    }

    private void port(int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = in.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidUrlException("a port that is not a number");
            }
            value = Math.min(value * 10 + c - '0', 1 << 20);
        }
        if (value > 65_535) {
            throw new InvalidUrlException("a port above 65535");
        }
        boolean none = from == to || value == WebUrl.defaultPort(scheme);
        port = none ? -1 : (int) value;
    }

    /** The path state from {@code p}: segments to the query, fragment or end; dot segments applied. */
    private void path(int p) {
        StringBuilder escaped = null;
        for (int start = p; ; ) {
            int end = start;
            boolean plain = true; // nothing in the segment to escape: it is taken as a range
            for (char c; end < n && !isSlash(c = in.charAt(end)) && c != '?' && c != '#'; end++) {
                plain &= PercentEncoding.PATH.keeps(c);
            }
            CharSequence segment = in.subSequence(start, end);
            if (!plain) {
                escaped = escaped == null ? new StringBuilder() : escaped;
                escaped.setLength(0);
                PercentEncoding.PATH.append(escaped, in, start, end);
                segment = escaped;
            }
            boolean slash = end < n && isSlash(in.charAt(end));
            if (isDoubleDot(segment)) {
                shorten();
                if (!slash) {
                    path.append('/');
                }
            } else if (!isSingleDot(segment)) {
                path.append('/').append(segment);
            } else if (!slash) {
                path.append('/');
            }
            if (!slash) {
                if (end < n && in.charAt(end) == '?') {
                    query(end + 1);
                } else if (end < n) {
                    fragment(end + 1);
                }
                return;
            }
            start = end + 1;
        }
    }

    private void query(int p) {
        int hash = in.indexOf('#', p);
        int end = hash < 0 ? n : hash;
        StringBuilder b = new StringBuilder(end - p);
        PercentEncoding.SPECIAL_QUERY.append(b, in, p, end);
        query = b.toString();
        if (hash >= 0) {
            fragment(hash + 1);
        }
    }

    private void fragment(int p) {
        StringBuilder b = new StringBuilder(n - p);
        PercentEncoding.FRAGMENT.append(b, in, p, n);
        fragment = b.toString();
    }

    /** Removes the path's last segment, if it has one. */
    private void shorten() {
        int slash = path.lastIndexOf("/");
        path.setLength(Math.max(slash, 0));
    }

    private static boolean isSingleDot(CharSequence s) {
        return s.length() == 1 && s.charAt(0) == '.' || s.length() == 3 && isEncodedDot(s, 0);
    }

    private static boolean isDoubleDot(CharSequence s) {
        return switch (s.length()) {
            case 2 -> s.charAt(0) == '.' && s.charAt(1) == '.';
            case 4 -> s.charAt(0) == '.' && isEncodedDot(s, 1) || isEncodedDot(s, 0) && s.charAt(3) == '.';
            case 6 -> isEncodedDot(s, 0) && isEncodedDot(s, 3);
            default -> false;
        };
    }

    private static boolean isEncodedDot(CharSequence s, int at) {
        return s.charAt(at) == '%' && s.charAt(at + 1) == '2' && (s.charAt(at + 2) == 'e' || s.charAt(at + 2) == 'E');
    }

    private static boolean isSlash(char c) {
        return c == '/' || c == '\\';
    }

    private static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
}
