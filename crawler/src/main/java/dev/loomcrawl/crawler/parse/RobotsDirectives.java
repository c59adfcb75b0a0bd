package dev.loomcrawl.crawler.parse;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a page's robots directives ask of this crawler, as Google documents the robots {@code <meta>} tag and the
 * {@code X-Robots-Tag} header (developers.google.com/search/docs/crawling-indexing/robots-meta-tag): a
 * {@code <meta name="robots">} speaks to every crawler and a {@code <meta>} named for this crawler's product
 * token to it alone; an {@code X-Robots-Tag} may name a crawler first ({@code otherbot: noindex}), and then its
 * directives are that crawler's, up to the next one named. Directives are words, split at white space and
 * commas, in any case: {@code max-image-preview:none} is no {@code none}.
 *
 * @param nofollow follow none of the page's links ({@code nofollow} or {@code none})
 * @param noindex keep none of the page's content: the page asks not to be indexed ({@code noindex} or
 *     {@code none})
 */
public record RobotsDirectives(boolean nofollow, boolean noindex) {
    public static final RobotsDirectives NONE = new RobotsDirectives(false, false);

    /** What separates directives (and {@code rel} words): white space and commas. */
    private static final Pattern BREAK = Pattern.compile("[\\s,]+");
    /** An item of an {@code X-Robots-Tag} that starts with a name and a colon: a crawler, or a directive's value. */
    private static final Pattern NAMED = Pattern.compile("\\s*([A-Za-z0-9_.-]+)\\s*:(.*)", Pattern.DOTALL);
    /** Directives that take a value after a colon, which are not the name of a crawler. */
    private static final Set<String> WITH_VALUE = Set.of("max-snippet", "max-image-preview", "max-video-preview",
            "unavailable_after");

    /** Both: what this page and that one ask, together. */
    public RobotsDirectives and(RobotsDirectives other) {
        return new RobotsDirectives(nofollow || other.nofollow, noindex || other.noindex);
    }

    /** The directives of a robots {@code <meta>}'s content (or a link's {@code rel}, for its {@code nofollow}). */
    public static RobotsDirectives of(@Nullable String directives) {
        if (directives == null || directives.isBlank()) {
            return NONE;
        }
        boolean nofollow = false;
        boolean noindex = false;
        for (String word : BREAK.split(directives)) {
            switch (word.toLowerCase(Locale.ROOT)) {
                case "none" -> {
                    nofollow = true;
                    noindex = true;
                }
                case "nofollow" -> nofollow = true;
                case "noindex" -> noindex = true;
                default -> { }
            }
        }
        return new RobotsDirectives(nofollow, noindex);
    }

    /** Whether a {@code <meta name=...>} speaks to this crawler: {@code robots}, or its product token. */
    public static boolean addresses(String metaName, String agentToken) {
        String name = metaName.strip();
        return name.equalsIgnoreCase("robots") || name.equalsIgnoreCase(agentToken);
    }

    /** The directives of {@code headers}' {@code X-Robots-Tag}s: see {@link #ofHeaders(List, String)}. */
    public static RobotsDirectives ofHeaders(HttpHeaders headers, String agentToken) {
        return ofHeaders(headers.allValues("X-Robots-Tag"), agentToken);
    }

    /**
     * The directives of a response's {@code X-Robots-Tag} headers that speak to every crawler or to the one whose
     * product token is {@code agentToken}; each header starts speaking to every crawler.
     */
    public static RobotsDirectives ofHeaders(List<String> values, String agentToken) {
        RobotsDirectives found = NONE;
        for (String value : values) {
            @Nullable String agent = null;
            for (String item : value.split(",")) {
                Matcher named = NAMED.matcher(item);
                if (named.matches() && !WITH_VALUE.contains(named.group(1).toLowerCase(Locale.ROOT))) {
                    agent = named.group(1);
                    item = named.group(2);
                }
                if (agent == null || agent.equalsIgnoreCase(agentToken)) {
                    found = found.and(of(item));
                }
            }
        }
        return found;
    }
}
