package dev.loomcrawl.crawler.values;

import java.time.Duration;
import java.util.List;

/**
 * One-off fetches ({@code POST /fetch}, {@link Crawler#fetchAll}): URLs fetched at once under the process's
 * per-host permits, outside any job.
 *
 * @param deadline for the whole batch: what has not finished by then is cancelled
 * @param refusePrivateAddresses refuse hosts that resolve to loopback, private or link-local addresses
 * @param respectRobots obey each host's robots.txt, as a crawl does (a disallowed URL is {@code skipped}, not
 *     fetched); false only when the caller has the site's leave
 * @param content each HTML page's main content, in the form asked for ({@link ContentRequest#NONE}: none)
 */
public record FetchRequest(List<CrawlUrl> urls, Duration deadline, boolean refusePrivateAddresses,
        boolean respectRobots, ContentRequest content) {
    public FetchRequest {
        urls = List.copyOf(urls);
    }
}
