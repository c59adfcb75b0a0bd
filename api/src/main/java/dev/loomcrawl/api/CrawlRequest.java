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
        Integer fetchDeadlineMs,
        Integer maxRetries,
        Integer hostDelayMs,
        Boolean respectRobots,
        Boolean refusePrivateAddresses) {

    static final int MAX_SEEDS = 1_000;

    /** Every setting of {@code config}, so that a job can be resumed exactly as it was started. */
    static CrawlRequest of(CrawlConfig c) {
        return new CrawlRequest(c.seeds().stream().map(Object::toString).toList(), c.maxDepth(), c.maxPages(),
                c.perHostConcurrency(), c.maxInFlight(), List.copyOf(c.allowedHosts()), c.mode().label(), c.poolSize(),
                (int) c.requestTimeout().toMillis(), (int) c.connectTimeout().toMillis(),
                (int) c.fetchDeadline().toMillis(), c.maxRetries(), (int) c.hostDelay().toMillis(), c.respectRobots(),
                c.refusePrivateAddresses());
    }

    /** Validates everything; the job is created only from a config that passed. */
    CrawlConfig toConfig(ExecutionMode defaultMode, int defaultPoolSize) {
        return toConfig(defaultMode, defaultPoolSize, MAX_SEEDS);
    }

    /** Like {@link #toConfig(ExecutionMode, int)}, with another seed limit (the CLI takes thousands). */
    CrawlConfig toConfig(ExecutionMode defaultMode, int defaultPoolSize, int maxSeeds) {
        if (seeds == null || seeds.isEmpty() || seeds.size() > maxSeeds) {
            throw ApiError.badRequest("seeds must hold 1 to " + maxSeeds + " URLs", "seeds");
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
        if (fetchDeadlineMs != null) b.fetchDeadline(Duration.ofMillis(fetchDeadlineMs));
        if (maxRetries != null) b.maxRetries(maxRetries);
        if (hostDelayMs != null) b.hostDelay(Duration.ofMillis(hostDelayMs));
        if (respectRobots != null) b.respectRobots(respectRobots);
        if (refusePrivateAddresses != null) b.refusePrivateAddresses(refusePrivateAddresses);
        if (allowedHosts != null) {
            allowedHosts.forEach(b::allowHost);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            // The config's messages start with its field name; the JSON names only differ for durations.
            String field = e.getMessage().split(" ", 2)[0];
            String json = switch (field) {
                case "requestTimeout", "connectTimeout", "fetchDeadline", "hostDelay" -> field + "Ms";
                default -> field;
            };
            throw ApiError.badRequest(json + e.getMessage().substring(field.length()), json);
        }
    }
}
