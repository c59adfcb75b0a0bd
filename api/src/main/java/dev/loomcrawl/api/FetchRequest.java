package dev.loomcrawl.api;

import dev.loomcrawl.crawler.CrawlUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /fetch}.
 *
 * @param urls 1 to 200 http(s) URLs
 * @param timeoutMs deadline for the whole batch, 1 to 60,000 ms (default 10,000)
 */
record FetchRequest(List<String> urls, Integer timeoutMs) {
    static final int MAX_URLS = 200;

    List<CrawlUrl> crawlUrls() {
        if (urls == null || urls.isEmpty() || urls.size() > MAX_URLS) {
            throw ApiError.badRequest("urls must hold 1 to " + MAX_URLS + " URLs", "urls");
        }
        List<CrawlUrl> out = new ArrayList<>(urls.size());
        for (int i = 0; i < urls.size(); i++) {
            try {
                out.add(CrawlUrl.of(urls.get(i)));
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest(e.getMessage(), "urls[" + i + "]");
            }
        }
        return out;
    }

    Duration deadline() {
        int ms = timeoutMs == null ? 10_000 : timeoutMs;
        if (ms < 1 || ms > 60_000) {
            throw ApiError.badRequest("timeoutMs must be between 1 and 60000, was " + ms, "timeoutMs");
        }
        return Duration.ofMillis(ms);
    }
}
