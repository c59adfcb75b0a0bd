package dev.loomcrawl.crawler.parse;

import dev.loomcrawl.crawler.values.CrawlUrl;
import java.util.HashMap;
import java.util.Map;

/**
 * Links that look like crawler traps: a path segment that repeats {@value #MAX_REPEATS} or more times
 * ({@code /a/b/a/b/a/b/}, the mark of relative links resolving against themselves). Such links are not
 * followed. Depth, page and URL-length limits stop the rest.
 */
final class TrapFilter {
    static final int MAX_REPEATS = 3;

    private TrapFilter() {}

    static boolean looksLikeTrap(CrawlUrl url) {
        String u = url.url();
        int start = CrawlUrl.pathStart(u);
        if (start < 0) {
            return false;
        }
        int end = CrawlUrl.pathEnd(u, start);
        Map<String, Integer> seen = new HashMap<>();
        int from = start + 1;
        while (from < end) {
            int slash = u.indexOf('/', from);
            int to = slash < 0 || slash > end ? end : slash;
            if (to > from && seen.merge(u.substring(from, to), 1, Integer::sum) >= MAX_REPEATS) {
                return true;
            }
            from = to + 1;
        }
        return false;
    }
}
