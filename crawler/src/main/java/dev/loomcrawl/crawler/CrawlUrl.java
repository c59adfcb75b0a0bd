package dev.loomcrawl.crawler;

import crawlercommons.filters.basic.BasicURLNormalizer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * A normalised http(s) URL and the host it is limited by.
 *
 * <p>Two spellings of one page ({@code HTTP://Example.com:80/a#top} and {@code http://example.com/a})
 * become one {@code url}, so the seen-check fetches each page once. {@code hostKey} is
 * {@code host:port}: robots.txt and politeness both apply per scheme-less authority.
 *
 * @param url normalised absolute URL
 * @param host lower-case host name, without port
 * @param hostKey {@code host:port} with the effective port
 */
public record CrawlUrl(String url, String host, String hostKey) {

    /** Longest URL we accept; longer ones are almost always traps or junk. */
    static final int MAX_LENGTH = 2048;

    // crawler-commons' normaliser: scheme and host case, default ports, dot segments, duplicate slashes,
    // percent-encoding, empty paths, fragments, and query parameters sorted by name.
    private static final BasicURLNormalizer NORMALIZER = new BasicURLNormalizer();

    /**
     * Normalises {@code raw}, or says why it cannot be crawled.
     *
     * @throws IllegalArgumentException naming the URL when it is not an absolute http(s) URL with a
     *     host, carries credentials, or is longer than {@value #MAX_LENGTH} characters
     */
    public static CrawlUrl of(String raw) {
        return parse(raw).orElseThrow(() -> new IllegalArgumentException(problem(raw)));
    }

    /** Like {@link #of} but empty instead of throwing: for links found in pages. */
    public static Optional<CrawlUrl> parse(String raw) {
        if (raw == null || raw.isBlank() || raw.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        String scheme = schemeOf(raw);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.empty();
        }
        if (hasUserInfo(raw)) {
            return Optional.empty(); // the normaliser would silently drop them; we refuse such URLs
        }
        String normalised = NORMALIZER.filter(raw.strip());
        if (normalised == null || normalised.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(normalised);
            String host = uri.getHost();
            if (host == null || host.isEmpty() || uri.getRawUserInfo() != null) {
                return Optional.empty();
            }
            host = host.toLowerCase(Locale.ROOT);
            int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            return Optional.of(new CrawlUrl(normalised, host, host + ":" + port));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static boolean hasUserInfo(String raw) {
        int start = raw.indexOf("://");
        if (start < 0) {
            return false;
        }
        start += 3;
        int end = start;
        while (end < raw.length() && "/?#".indexOf(raw.charAt(end)) < 0) {
            end++;
        }
        return raw.lastIndexOf('@', end - 1) >= start;
    }

    private static String schemeOf(String raw) {
        int colon = raw.indexOf(':');
        return colon <= 0 ? "" : raw.substring(0, colon).strip().toLowerCase(Locale.ROOT);
    }

    private static String problem(String raw) {
        if (raw == null || raw.isBlank()) {
            return "URL is empty";
        }
        if (raw.length() > MAX_LENGTH) {
            return "URL is longer than " + MAX_LENGTH + " characters";
        }
        String scheme = schemeOf(raw);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "URL must be http or https: '" + raw + "'";
        }
        if (hasUserInfo(raw)) {
            return "URL must not carry credentials: '" + raw + "'";
        }
        return "not a crawlable URL (no host or bad syntax): '" + raw + "'";
    }

    @Override
    public String toString() {
        return url;
    }
}
