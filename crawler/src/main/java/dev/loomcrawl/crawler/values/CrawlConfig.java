package dev.loomcrawl.crawler.values;

import static dev.loomcrawl.crawler.values.ConfigChecks.checkDomains;
import static dev.loomcrawl.crawler.values.ConfigChecks.checkHeaders;
import static dev.loomcrawl.crawler.values.ConfigChecks.checkHosts;
import static dev.loomcrawl.crawler.values.ConfigChecks.checkPatterns;
import static dev.loomcrawl.crawler.values.ConfigChecks.checkRules;
import static dev.loomcrawl.crawler.values.ConfigChecks.checkTypes;
import static dev.loomcrawl.crawler.values.ConfigChecks.hasLineBreak;
import static dev.loomcrawl.crawler.values.ConfigChecks.requireDuration;
import static dev.loomcrawl.crawler.values.ConfigChecks.requireRange;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Everything one crawl job needs to know, validated on construction: a bad value throws a
 * {@link ConfigException} naming the field. Build one with {@link #builder()}; every default below is
 * the builder's. A job stores its whole config, so a resumed job runs exactly as it was started.
 *
 * <p>It is grouped by concern: {@link Scope} (which URLs), {@link Politeness} (how servers are treated),
 * {@link Fetch} (how one URL is fetched), {@link Output} (what is kept besides the rows) and
 * {@link Execution} (how tasks run), and {@link Freshness} (revisits, near-duplicates, the change feed). The
 * builder and the JSON of a job ({@link ConfigCodec}) stay flat.
 */
public record CrawlConfig(Scope scope, Politeness politeness, Fetch fetch, Output output, Execution execution,
        Freshness freshness) {

    /**
     * Which URLs the crawl takes.
     *
     * @param seeds where the crawl starts (depth 0); 1 or more
     * @param maxDepth links followed from a seed; 0 fetches only the seeds (default 3)
     * @param maxPages URLs admitted for fetching at most, failures included; links robots.txt is known to
     *     forbid do not count (default 10,000)
     * @param allowedHosts hosts in scope, exactly; {@code *} means any host
     * @param allowedDomains registrable domains in scope with all their subdomains ({@code example.com} admits
     *     {@code www.example.com}); with no allowed host or domain, the seeds' hosts are the scope
     * @param allowPatterns regular expressions: when there are any, only links whose URL matches one are
     *     followed (the seeds are fetched whatever they say)
     * @param denyPatterns regular expressions: links whose URL matches one are not followed
     * @param sitemaps read each host's sitemaps (robots.txt's {@code Sitemap:} lines and {@code /sitemap.xml})
     *     and admit their URLs at depth 1 (default false)
     * @param ignoreNofollow follow {@code rel=nofollow} links and pages marked {@code nofollow} (default false)
     * @param acceptTypes media types kept besides HTML, never parsed ({@code application/pdf}, {@code image/*})
     */
    public record Scope(
            List<CrawlUrl> seeds,
            int maxDepth,
            int maxPages,
            Set<String> allowedHosts,
            Set<String> allowedDomains,
            List<String> allowPatterns,
            List<String> denyPatterns,
            boolean sitemaps,
            boolean ignoreNofollow,
            Set<String> acceptTypes) {

        public Scope {
            seeds = List.copyOf(seeds);
            if (seeds.isEmpty()) {
                throw new ConfigException("seeds", seeds, "must not be empty");
            }
            requireRange("maxDepth", maxDepth, 0, 1_000);
            requireRange("maxPages", maxPages, 1, 100_000_000);
            allowedHosts = checkHosts(allowedHosts);
            allowedDomains = checkDomains(allowedDomains);
            allowPatterns = checkPatterns("allowPatterns", allowPatterns);
            denyPatterns = checkPatterns("denyPatterns", denyPatterns);
            acceptTypes = checkTypes(acceptTypes);
        }
    }

    /**
     * How it treats the servers it asks.
     *
     * @param perHostConcurrency fetches in flight to one {@code host:port} at most; a server's own limit may
     *     be lower (default 8)
     * @param hostDelay least time between two requests to one host (default 0; robots.txt's Crawl-delay may ask more)
     * @param hostFailureLimit URLs failing in a row after which a host is given up (default 10); a URL failing
     *     again counts once, and so do the requests already on their way when a failure came back, failing with it
     * @param respectRobots obey robots.txt (default true)
     * @param robotsRetryFor how long a host whose robots.txt cannot be had (5xx, no answer, the network down) is
     *     retried with backoff before it is given up (default 2 minutes); a name DNS does not know is given up at once
     * @param maxRetries further attempts after a connect error, reset, header timeout, 5xx or 429 (default 2);
     *     three times as many when the answer has a {@code Retry-After}
     * @param politenessKey what {@code perHostConcurrency} limits: each host name, each registered domain, or
     *     each address (default {@code host}; see {@link PolitenessKey})
     */
    public record Politeness(
            int perHostConcurrency,
            Duration hostDelay,
            int hostFailureLimit,
            boolean respectRobots,
            Duration robotsRetryFor,
            int maxRetries,
            PolitenessKey politenessKey) {

        public Politeness {
            Objects.requireNonNull(politenessKey, "politenessKey");
            requireRange("perHostConcurrency", perHostConcurrency, 1, 10_000);
            requireRange("maxRetries", maxRetries, 0, 10);
            requireDuration("hostDelay", hostDelay, Duration.ZERO, Duration.ofMinutes(10));
            requireRange("hostFailureLimit", hostFailureLimit, 1, 1_000_000);
            requireDuration("robotsRetryFor", robotsRetryFor, Duration.ZERO, Duration.ofDays(1));
        }
    }

    /**
     * How one URL is fetched.
     *
     * @param connectTimeout TCP connect timeout (default 5 s)
     * @param requestTimeout time to the response headers (default 10 s)
     * @param fetchDeadline time for a whole fetch, body included; a slower body fails as {@code timeout} (default 30 s)
     * @param maxBodyBytes bytes of a body kept at most, decoded; a longer HTML page is cut there, any other type
     *     fails as {@code too-large} (default 2 MiB)
     * @param maxRedirects redirect hops followed from one URL (default 5)
     * @param userAgent sent with every request; its first word is the robots.txt product token
     * @param headers more request headers, sent with every request
     * @param refusePrivateAddresses refuse hosts that resolve to loopback, private or link-local addresses
     *     (default false: the mock farm is on loopback; turn on for crawls of the public web)
     * @param cookies keep the cookies servers set and send them back, as a browser does, for the job's run
     *     (default false: each request stands alone)
     */
    public record Fetch(
            Duration connectTimeout,
            Duration requestTimeout,
            Duration fetchDeadline,
            int maxBodyBytes,
            int maxRedirects,
            String userAgent,
            Map<String, String> headers,
            boolean refusePrivateAddresses,
            boolean cookies) {

        public Fetch {
            requireDuration("connectTimeout", connectTimeout, Duration.ofMillis(1), Duration.ofMinutes(10));
            requireDuration("requestTimeout", requestTimeout, Duration.ofMillis(1), Duration.ofMinutes(10));
            requireDuration("fetchDeadline", fetchDeadline, Duration.ofMillis(1), Duration.ofHours(1));
            requireRange("maxBodyBytes", maxBodyBytes, 1_024, 1 << 30);
            requireRange("maxRedirects", maxRedirects, 0, 50);
            if (userAgent == null || userAgent.isBlank() || hasLineBreak(userAgent)) {
                throw new ConfigException("userAgent", userAgent, "must be one line of text, was '" + userAgent + "'");
            }
            headers = checkHeaders(headers);
        }
    }

    /**
     * What is kept besides the page rows.
     *
     * @param extract per name, a CSS selector whose first match's text is kept, or {@code CSS@attr} for an attribute
     * @param extractAll like {@code extract}, but every match, as a list
     * @param storeBody keep each page's decoded body in the store (default false)
     * @param warcFile write a request and a response record for every stored fetch to this WARC file
     *     ({@code .warc.gz}: gzipped per record); null for none
     * @param content keep each page's main content in this form (default {@link ContentFormat#NONE})
     * @param contentMaxChars most characters of content kept per page; a longer one is cut and says so
     * @param ignoreNoindex keep the content of pages that say {@code noindex} too (default false: their rows say
     *     {@code noindex} and keep no content)
     */
    public record Output(
            Map<String, String> extract,
            Map<String, String> extractAll,
            boolean storeBody,
            @Nullable String warcFile,
            ContentFormat content,
            int contentMaxChars,
            boolean ignoreNoindex) {

        public Output {
            extract = checkRules("extract", extract);
            extractAll = checkRules("extractAll", extractAll);
            if (warcFile != null && warcFile.isBlank()) {
                warcFile = null;
            }
            if (content == null) {
                throw new ConfigException("content", null, "must be 'markdown', 'text' or 'none', was null");
            }
            requireRange("contentMaxChars", contentMaxChars, ContentFormat.MIN_MAX_CHARS, ContentFormat.MAX_MAX_CHARS);
        }

        /** What the parser is asked for, page by page. */
        public ContentRequest contentRequest() {
            return new ContentRequest(content, contentMaxChars, ignoreNoindex);
        }
    }

    /**
     * How its tasks run.
     *
     * @param mode how URL tasks run
     * @param poolSize platform threads in {@link ExecutionMode#POOL} (default 200, Tomcat's default)
     * @param maxInFlight fetches in flight across all hosts at most; the process may hold fewer when its CPU
     *     is the limit (default 10,000)
     */
    public record Execution(
            ExecutionMode mode,
            int poolSize,
            int maxInFlight) {

        public Execution {
            requireRange("maxInFlight", maxInFlight, 1, 1_000_000);
            if (mode == null) {
                throw new ConfigException("mode", null, "must be 'virtual' or 'pool', was null");
            }
            requireRange("poolSize", poolSize, 1, MAX_POOL_SIZE);
        }
    }

    /** A crawl's TCP connect timeout unless its config says otherwise. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    public static final String DEFAULT_USER_AGENT = "loomcrawl/0.2 (+https://github.com/loomcrawl/loomcrawl)";
    /** Most platform threads a pool-mode job may ask for. */
    public static final int MAX_POOL_SIZE = 100_000;

    public CrawlConfig {
        if (scope == null || politeness == null || fetch == null || output == null || execution == null
                || freshness == null) {
            throw new ConfigException("config", null, "needs every group of settings");
        }
    }

    /** A builder with every default set. */
    public static CrawlConfigBuilder builder() {
        return new CrawlConfigBuilder();
    }

    /** A builder holding this config's values, to change a few. */
    public CrawlConfigBuilder toBuilder() {
        return CrawlConfigBuilder.of(this);
    }
}
