package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.url.WebUrl;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Fetching a host's robots.txt by RFC 9309's rules: redirects are followed ({@value Robots#MAX_REDIRECTS}
 * hops at most, then it counts as unavailable); 2xx gives rules; 4xx means no rules, allow all; 5xx, 429
 * or no answer leaves them unknown, for the job to retry.
 */
public final class RobotsFetch {

    /** The rules, or the failure that left them unknown. */
    public record Answer(Robots.@Nullable Rules rules, FetchResult.@Nullable Failed failure) {}

    private RobotsFetch() {}

    /**
     * @param mayStart asked before each request, redirects included (see {@link Fetcher#fetch}); or null
     * @throws Fetcher.NotSent when it said no: the rules are still unknown, and nothing counts as a failure
     */
    public static Answer fetch(Fetcher fetcher, CrawlUrl page, String agentToken, @Nullable BooleanSupplier mayStart)
            throws InterruptedException, Fetcher.NotSent {
        CrawlUrl url = CrawlUrl.of(page.origin() + "/robots.txt");
        for (int hop = 0; hop <= Robots.MAX_REDIRECTS; hop++) {
            FetchResult result = fetcher.fetch(url, Fetcher.Purpose.ROBOTS, null, mayStart);
            switch (result) {
                case FetchResult.Response r when r.redirect() -> {
                    WebUrl base = url.web();
                    CrawlUrl next = r.location().map(location -> CrawlUrl.check(location, base))
                            .map(check -> check instanceof CrawlUrl.Check.Ok ok ? ok.url() : null).orElse(null);
                    if (next == null) {
                        return new Answer(Robots.ALLOW_ALL, null); // a redirect to nowhere: unavailable
                    }
                    url = next;
                }
                case FetchResult.Response r -> {
                    return new Answer(Robots.parse(url, r.body(), r.contentType(), agentToken), null);
                }
                case FetchResult.Failed f when f.status() >= 400 && f.status() < 500 && f.status() != 429 -> {
                    return new Answer(Robots.ALLOW_ALL, null); // RFC 9309 2.3.1.3: unavailable, no rules
                }
                case FetchResult.Failed f -> {
                    return new Answer(null, f); // 2.3.1.4: unreachable, assume complete disallow for now
                }
            }
        }
        return new Answer(Robots.ALLOW_ALL, null); // more redirects than RFC 9309 asks us to follow
    }
}
