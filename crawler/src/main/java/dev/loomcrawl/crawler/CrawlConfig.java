package dev.loomcrawl.crawler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Everything one crawl job needs to know, validated on construction. Build one with {@link #builder()}.
 *
 * @param seeds where the crawl starts (depth 0); at least one
 * @param maxDepth links followed from a seed; 0 fetches only the seeds (default 3)
 * @param maxPages URLs fetched at most, failures included (default 10,000)
 * @param perHostConcurrency fetches in flight to one {@code host:port} at most (default 8)
 * @param maxInFlight fetches in flight across all hosts at most, queued pool tasks included (default 10,000)
 * @param connectTimeout TCP connect timeout (default 5 s)
 * @param requestTimeout time to the response headers (default 10 s)
 * @param fetchDeadline time for a whole fetch, body included; a slower body fails as {@code timeout} (default 30 s)
 * @param maxRetries further attempts after a connect error, reset, 5xx or 429 (default 2)
 * @param hostDelay least time between two requests to one host (default 0; robots.txt's Crawl-delay may ask more)
 * @param hostFailureLimit consecutive failed requests after which a host is given up (default 10)
 * @param refusePrivateAddresses refuse hosts that resolve to loopback, private or link-local addresses
 *     (default false: the mock farm is on loopback; turn on for crawls of the public web)
 * @param maxBodyBytes bytes of a body read at most; a longer page fails as {@code too-large} (default 2 MiB)
 * @param maxRedirects redirect hops followed from one URL (default 5)
 * @param userAgent sent with every request
 * @param allowedHosts hosts in scope; empty means the seeds' hosts; {@code *} means any host
 * @param respectRobots obey robots.txt (default true)
 * @param mode how URL tasks run
 * @param poolSize platform threads in {@link ExecutionMode#POOL} (default 200, Tomcat's default)
 */
public record CrawlConfig(
        List<CrawlUrl> seeds,
        int maxDepth,
        int maxPages,
        int perHostConcurrency,
        int maxInFlight,
        Duration connectTimeout,
        Duration requestTimeout,
        Duration fetchDeadline,
        int maxRetries,
        Duration hostDelay,
        int hostFailureLimit,
        boolean refusePrivateAddresses,
        int maxBodyBytes,
        int maxRedirects,
        String userAgent,
        Set<String> allowedHosts,
        boolean respectRobots,
        ExecutionMode mode,
        int poolSize) {

    public static final String DEFAULT_USER_AGENT =
            "loomcrawl/0.1 (+https://github.com/loomcrawl/loomcrawl)";

    public CrawlConfig {
        seeds = List.copyOf(seeds);
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("seeds must not be empty");
        }
        requireRange("maxDepth", maxDepth, 0, 1_000);
        requireRange("maxPages", maxPages, 1, 100_000_000);
        requireRange("perHostConcurrency", perHostConcurrency, 1, 10_000);
        requireRange("maxInFlight", maxInFlight, 1, 1_000_000);
        requirePositive("connectTimeout", connectTimeout);
        requirePositive("requestTimeout", requestTimeout);
        requirePositive("fetchDeadline", fetchDeadline);
        requireRange("maxRetries", maxRetries, 0, 10);
        if (hostDelay == null || hostDelay.isNegative() || hostDelay.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("hostDelay must be between 0 and 10 minutes, was " + hostDelay);
        }
        requireRange("hostFailureLimit", hostFailureLimit, 1, 1_000_000);
        requireRange("maxBodyBytes", maxBodyBytes, 1_024, 1 << 30);
        requireRange("maxRedirects", maxRedirects, 0, 50);
        if (userAgent == null || userAgent.isBlank()) {
            throw new IllegalArgumentException("userAgent must not be blank");
        }
        allowedHosts = Set.copyOf(allowedHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList());
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        requireRange("poolSize", poolSize, 1, 100_000);
    }

    /** A builder with every default set. */
    public static Builder builder() {
        return new Builder();
    }

    private static void requireRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    field + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    private static void requirePositive(String field, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(field + " must be a positive duration, was " + value);
        }
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private final List<CrawlUrl> seeds = new ArrayList<>();
        private int maxDepth = 3;
        private int maxPages = 10_000;
        private int perHostConcurrency = 8;
        private int maxInFlight = 10_000;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration fetchDeadline = Duration.ofSeconds(30);
        private int maxRetries = 2;
        private Duration hostDelay = Duration.ZERO;
        private int hostFailureLimit = 10;
        private boolean refusePrivateAddresses;
        private int maxBodyBytes = 2 * 1024 * 1024;
        private int maxRedirects = 5;
        private String userAgent = DEFAULT_USER_AGENT;
        private final Set<String> allowedHosts = new LinkedHashSet<>();
        private boolean respectRobots = true;
        private ExecutionMode mode = ExecutionMode.VIRTUAL;
        private int poolSize = 200;

        private Builder() {}

        /** Adds a seed; throws {@link IllegalArgumentException} naming the URL if it is not crawlable. */
        public Builder seed(String url) {
            seeds.add(CrawlUrl.of(url));
            return this;
        }

        public Builder seeds(List<String> urls) {
            urls.forEach(this::seed);
            return this;
        }

        public Builder maxDepth(int value) { maxDepth = value; return this; }
        public Builder maxPages(int value) { maxPages = value; return this; }
        public Builder perHostConcurrency(int value) { perHostConcurrency = value; return this; }
        public Builder maxInFlight(int value) { maxInFlight = value; return this; }
        public Builder connectTimeout(Duration value) { connectTimeout = value; return this; }
        public Builder requestTimeout(Duration value) { requestTimeout = value; return this; }
        public Builder fetchDeadline(Duration value) { fetchDeadline = value; return this; }
        public Builder maxRetries(int value) { maxRetries = value; return this; }
        public Builder hostDelay(Duration value) { hostDelay = value; return this; }
        public Builder hostFailureLimit(int value) { hostFailureLimit = value; return this; }
        public Builder refusePrivateAddresses(boolean value) { refusePrivateAddresses = value; return this; }
        public Builder maxBodyBytes(int value) { maxBodyBytes = value; return this; }
        public Builder maxRedirects(int value) { maxRedirects = value; return this; }
        public Builder userAgent(String value) { userAgent = value; return this; }
        public Builder allowHost(String host) { allowedHosts.add(host); return this; }
        public Builder respectRobots(boolean value) { respectRobots = value; return this; }
        public Builder mode(ExecutionMode value) { mode = value; return this; }
        public Builder poolSize(int value) { poolSize = value; return this; }

        public CrawlConfig build() {
            return new CrawlConfig(seeds, maxDepth, maxPages, perHostConcurrency, maxInFlight, connectTimeout,
                    requestTimeout, fetchDeadline, maxRetries, hostDelay, hostFailureLimit, refusePrivateAddresses,
                    maxBodyBytes, maxRedirects, userAgent, allowedHosts, respectRobots, mode, poolSize);
        }
    }
}
