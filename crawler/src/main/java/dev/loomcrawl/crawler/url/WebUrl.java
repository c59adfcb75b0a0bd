package dev.loomcrawl.crawler.url;

import org.jspecify.annotations.Nullable;

/**
 * An http or https URL as the WHATWG URL Standard parses it: what a browser requests for a link, a redirect's
 * {@code Location} or a typed address. Fields hold the standard's serialised components.
 *
 * @param scheme {@code http} or {@code https}
 * @param username percent-encoded; empty when there is none
 * @param password percent-encoded; empty when there is none
 * @param host the host in its one spelling ({@link Hosts})
 * @param port the port, or -1 for none or the scheme's default
 * @param path the serialised path, starting with {@code /}
 * @param query without its {@code ?}; null for none (an empty one is {@code ""})
 * @param fragment without its {@code #}; null for none
 */
public record WebUrl(String scheme, String username, String password, String host, int port, String path,
        @Nullable String query, @Nullable String fragment) {

    /** What a string is as a URL. */
    public sealed interface Parse {
        /** An http(s) URL. */
        record Ok(WebUrl url) implements Parse {}

        /** A valid start of a URL with another scheme ({@code mailto}, {@code javascript}, {@code ftp}, ...). */
        record OtherScheme(String scheme) implements Parse {}

        /** What the standard calls a failure: a browser makes no URL of it. */
        record Failure(String reason) implements Parse {}
    }

    /** Parses {@code input} as an absolute URL. */
    public static Parse parse(String input) {
        return UrlParser.parse(input, null);
    }

    /** Parses {@code input} as a link on a page whose base URL is {@code base}. */
    public static Parse parse(String input, @Nullable WebUrl base) {
        return UrlParser.parse(input, base);
    }

    /** The scheme's default port when the URL names none. */
    public int effectivePort() {
        return port != -1 ? port : defaultPort(scheme);
    }

    /** The port a URL of {@code scheme} (http or https) leaves out. */
    public static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    /** The URL with its fragment. */
    public String href() {
        return fragment == null ? hrefWithoutFragment() : hrefWithoutFragment() + "#" + fragment;
    }

    /** The URL without its fragment: what goes on the wire and what a crawler keeps. */
    public String hrefWithoutFragment() {
        StringBuilder out = new StringBuilder(scheme.length() + host.length() + path.length() + 16
                + (query == null ? 0 : query.length()));
        out.append(scheme).append("://");
        if (!username.isEmpty() || !password.isEmpty()) {
            out.append(username);
            if (!password.isEmpty()) {
                out.append(':').append(password);
            }
            out.append('@');
        }
        out.append(host);
        if (port != -1) {
            out.append(':').append(port);
        }
        out.append(path);
        if (query != null) {
            out.append('?').append(query);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return href();
    }
}
