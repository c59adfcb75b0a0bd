package dev.loomcrawl.api;

import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.ExecutionMode;
import java.time.Duration;
import java.util.List;

/**
 * The body of {@code POST /crawl}. Absent fields take the server's defaults.
 *
 * @param seeds 1 to 1,000 http(s) URLs
 * @param allowedHosts hosts whose links are followed (default: the seeds' hosts; {@code *} for any)
 * @param mode {@code virtual} or {@code pool} (default: the server's mode)
 */
record CrawlRequest(
        List<String> seeds,
        Integer maxDepth,
        Integer maxPages,
        Integer perHostConcurrency,
        Integer maxInFlight,
        List<String> allowedHosts,
        String mode,
        Integer poolSize,
        Integer requestTimeoutMs,
        Integer connectTimeoutMs,
        Boolean respectRobots) {

    static final int MAX_SEEDS = 1_000;

    /** Validates everything; the job is created only from a config that passed. */
    CrawlConfig toConfig(ExecutionMode defaultMode, int defaultPoolSize) {
        if (seeds == null || seeds.isEmpty() || seeds.size() > MAX_SEEDS) {
            throw ApiError.badRequest("seeds must hold 1 to " + MAX_SEEDS + " URLs", "seeds");
        }
        CrawlConfig.Builder b = CrawlConfig.builder();
        for (int i = 0; i < seeds.size(); i++) {
            try {
                b.seed(seeds.get(i));
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest(e.getMessage(), "seeds[" + i + "]");
            }
        }
        try {
            b.mode(mode == null ? defaultMode : ExecutionMode.parse(mode));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage(), "mode");
        }
        b.poolSize(poolSize == null ? defaultPoolSize : poolSize);
        if (maxDepth != null) b.maxDepth(maxDepth);
        if (maxPages != null) b.maxPages(maxPages);
        if (perHostConcurrency != null) b.perHostConcurrency(perHostConcurrency);
        if (maxInFlight != null) b.maxInFlight(maxInFlight);
        if (requestTimeoutMs != null) b.requestTimeout(Duration.ofMillis(requestTimeoutMs));
        if (connectTimeoutMs != null) b.connectTimeout(Duration.ofMillis(connectTimeoutMs));
        if (respectRobots != null) b.respectRobots(respectRobots);
        if (allowedHosts != null) {
            allowedHosts.forEach(b::allowHost);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // The config's messages start with its field name; the JSON names only differ for durations.
            String field = e.getMessage().split(" ", 2)[0];
            field = switch (field) {
                case "requestTimeout" -> "requestTimeoutMs";
                case "connectTimeout" -> "connectTimeoutMs";
                default -> field;
            };
            throw ApiError.badRequest(e.getMessage().replaceFirst("^(request|connect)Timeout", field), field);
        }
    }
}
