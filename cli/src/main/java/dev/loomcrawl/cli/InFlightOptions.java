package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.CrawlerOptions;
import picocli.CommandLine.Option;

/**
 * The process-wide limit on requests in flight, shared by {@code crawl} and {@code serve} (a picocli mixin).
 */
final class InFlightOptions {
    @Option(names = "--max-in-flight", paramLabel = "N", defaultValue = "10000",
            description = "Requests in flight across all hosts at most; fewer while the CPU or the store is the limit"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--fixed-in-flight", description = "Hold --max-in-flight as a fixed limit instead of adapting it"
            + " to what the CPU can carry (to measure what the adaptive limit does).")
    boolean fixedInFlight;

    int maxInFlight() {
        return maxInFlight;
    }

    /** The crawler's process options with {@code perHost} requests in flight per host at most. */
    CrawlerOptions options(int perHost) {
        return new CrawlerOptions(perHost, Math.max(maxInFlight, 1), !fixedInFlight);
    }
}
