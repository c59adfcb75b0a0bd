package dev.loomcrawl.crawler.politeness;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * robots.txt (RFC 9309), parsed by crawler-commons' {@link SimpleRobotRulesParser}, matched against the
 * product token of the job's user agent. When the file cannot be had: a 4xx (or more than
 * {@value #MAX_REDIRECTS} redirects) allows everything; a 5xx or no answer disallows everything until it
 * can be fetched, which the job retries with backoff for a while before it gives the host up.
 */
public final class Robots {
    /** Redirects of robots.txt followed (RFC 9309 2.3.1.2: at least five). */
    static final int MAX_REDIRECTS = 5;
    /** {@code Crawl-delay} is honoured up to this; longer delays would stall a crawl for hours. */
    static final Duration MAX_CRAWL_DELAY = Duration.ofSeconds(10);
    /**
     * A {@code Crawl-delay} over this (crawler-commons' own bound) asks, in effect, not to be crawled: no URL of
     * the host is fetched, and each says why.
     */
    static final Duration NOT_CRAWLED_DELAY = Duration.ofMinutes(5);
    public static final int MAX_BYTES = Fetcher.MAX_ROBOTS_BYTES;

    /** A robots.txt as fetched (2xx), to be parsed again for another agent, or by another node. */
    public record Text(String url, byte[] body, @Nullable String contentType) {}

    /**
     * What one host allows, and the sitemaps it names.
     *
     * @param text the robots.txt these rules were read from; null when there is none (allow all)
     * @param index the rules by the text a path must start with to match each; null for a short robots.txt
     */
    public record Rules(BaseRobotRules rules, long crawlDelayNanos, @Nullable String reason, @Nullable Text text,
            @Nullable RobotsIndex index) {
        /** The rules and their index, made from them. */
        public Rules(BaseRobotRules rules, long crawlDelayNanos, @Nullable String reason, @Nullable Text text) {
            this(rules, crawlDelayNanos, reason, text, RobotsIndex.of(rules));
        }

        public boolean allows(CrawlUrl url) {
            // The URL object, from the checked parts: isAllowed(String) parses the whole string again (URI, then
            // URL) for the path and query alone, 2-3% of a crawl's CPU with a link or twenty a page.
            if (rules.isAllowAll()) {
                return true;
            }
            java.net.URL parts = url.toUrl();
            if (parts == null) {
                return rules.isAllowed(url.url());
            }
            return index != null ? index.allows(parts) : rules.isAllowed(parts);
        }

        public List<String> sitemaps() {
            return rules.getSitemaps();
        }
    }

    public static final Rules ALLOW_ALL = new Rules(new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL), 0, null, null);

    private static final System.Logger LOG = System.getLogger(Robots.class.getName());
    /** robots.txt files found over the limit, said once each (a cluster reads the text again on every node). */
    private static final Set<String> CUT_REPORTED = ConcurrentHashMap.newKeySet();

    private Robots() {}

    /**
     * The robots.txt product token of a user agent: {@code loomcrawl/0.1 (+https://...)} matches
     * {@code User-agent: loomcrawl} groups.
     */
    public static String productToken(String userAgent) {
        String first = userAgent.strip().split("[\\s/;(]", 2)[0];
        return first.isEmpty() ? "loomcrawl" : first.toLowerCase(Locale.ROOT);
    }

    /**
     * The rules of a robots.txt that answered 2xx. One over {@link #MAX_BYTES} is read up to its last whole line
     * within them, as RFC 9309 2.5 allows, and says so: in the reason of every URL it disallows, and in one log
     * line.
     */
    public static Rules parse(CrawlUrl robotsUrl, byte[] body, @Nullable String contentType, String agentToken) {
        byte[] read = body;
        String reason = "disallowed by robots.txt";
        if (body.length > MAX_BYTES) {
            int end = MAX_BYTES;
            while (end > 0 && body[end - 1] != '\n') {
                end--;
            }
            read = Arrays.copyOf(body, end);
            reason += " (its first " + MAX_BYTES / 1024 + " KiB: the rest was not read, as RFC 9309 allows)";
            if (CUT_REPORTED.add(robotsUrl.url())) {
                LOG.log(System.Logger.Level.WARNING, robotsUrl.url() + " is over " + MAX_BYTES / 1024
                        + " KiB: its rules are read from its first " + end + " bytes (RFC 9309 2.5)");
            }
        }
        SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
        parser.setMaxCrawlDelay(Long.MAX_VALUE); // ours, below: the parser's would disallow all and not say why
        BaseRobotRules rules = parser.parseContent(robotsUrl.url(), read, contentType, List.of(agentToken));
        long asked = rules.getCrawlDelay() == BaseRobotRules.UNSET_CRAWL_DELAY ? 0 : Math.max(0, rules.getCrawlDelay());
        if (asked > NOT_CRAWLED_DELAY.toMillis()) {
            rules = new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_NONE);
            reason = "robots.txt asks for " + asked / 1000 + " s between requests (Crawl-delay), more than "
                    + NOT_CRAWLED_DELAY.toMinutes() + " minutes: the host is not crawled";
        }
        long delayMillis = Math.min(asked, MAX_CRAWL_DELAY.toMillis());
        // the text as received (at most a byte over the limit): read again elsewhere, it says the same
        return new Rules(rules, Duration.ofMillis(delayMillis).toNanos(), reason,
                new Text(robotsUrl.url(), body, contentType));
    }

    /** The rules of a robots.txt fetched before (by this process or another node); null text: allow all. */
    public static Rules of(@Nullable Text text, String agentToken) {
        return text == null ? ALLOW_ALL : parse(CrawlUrl.of(text.url()), text.body(), text.contentType(), agentToken);
    }

    /** Wait before fetch attempt {@code failures + 1} of an unreachable robots.txt: 1 s, 2 s, 4 s ... 60 s. */
    public static Duration backoff(int failures) {
        return Duration.ofSeconds(Math.min(60, 1L << Math.min(failures - 1, 6)));
    }
}
