package dev.loomcrawl.crawler;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.time.Duration;
import java.util.List;

/**
 * robots.txt, parsed by crawler-commons' {@link SimpleRobotRulesParser}, with RFC 9309's rules for when
 * the file cannot be had: 4xx allows everything; 5xx or no answer disallows everything until it can be
 * fetched, which is tried again with backoff, {@value #ATTEMPTS} times in all.
 */
final class Robots {
    /** Our product token, matched against {@code User-agent} lines. */
    static final String AGENT = "loomcrawl";
    /** Fetches of an unreachable robots.txt before the host is given up. */
    static final int ATTEMPTS = 3;
    /** {@code Crawl-delay} is honoured up to this; longer delays would stall a crawl for hours. */
    static final Duration MAX_CRAWL_DELAY = Duration.ofSeconds(10);
    static final int MAX_BYTES = 512 * 1024; // RFC 9309: parse at least 500 KiB

    /** What one host allows. */
    record Rules(BaseRobotRules rules, long crawlDelayNanos, String reason) {
        boolean allows(CrawlUrl url) {
            return rules.isAllowed(url.url());
        }
    }

    static final Rules ALLOW_ALL = new Rules(new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL), 0, null);

    private Robots() {}

    static CrawlUrl robotsUrl(CrawlUrl any) {
        String url = any.url();
        int pathStart = url.indexOf('/', url.indexOf("://") + 3);
        return CrawlUrl.of((pathStart < 0 ? url : url.substring(0, pathStart)) + "/robots.txt");
    }

    /** Rules from a fetch, or null when the fetch should be tried again (after {@link #backoff}). */
    static Rules from(CrawlUrl url, FetchResult result, int attempt) {
        int status = switch (result) {
            case FetchResult.Fetched f -> f.status();
            case FetchResult.Failed f -> f.status();
        };
        if (result instanceof FetchResult.Fetched fetched && status >= 200 && status < 300) {
            BaseRobotRules rules = new SimpleRobotRulesParser().parseContent(url.url(), fetched.body(),
                    fetched.contentType(), List.of(AGENT));
            long delayMillis = rules.getCrawlDelay() == BaseRobotRules.UNSET_CRAWL_DELAY ? 0
                    : Math.min(Math.max(0, rules.getCrawlDelay()), MAX_CRAWL_DELAY.toMillis());
            return new Rules(rules, Duration.ofMillis(delayMillis).toNanos(), "disallowed by robots.txt");
        }
        if (status >= 300 && status < 500) {
            return ALLOW_ALL; // RFC 9309 2.3.1.3: unavailable (including redirects we do not follow)
        }
        // 5xx, or no answer at all: unreachable. Disallow until it can be fetched; give up after ATTEMPTS.
        if (attempt < ATTEMPTS) {
            return null;
        }
        return new Rules(new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_NONE), 0,
                "robots.txt unreachable (" + (status > 0 ? "HTTP " + status : "no response") + ")");
    }

    /** Wait before fetch attempt {@code attempt + 1} of an unreachable robots.txt: 1 s, 2 s, 4 s ... */
    static long backoffNanos(int attempt) {
        return Duration.ofSeconds(1L << Math.min(attempt - 1, 6)).toNanos();
    }
}
