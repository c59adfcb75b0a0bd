package dev.loomcrawl.mocksites;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Named farms, each with the crawl settings it is meant for.
 *
 * @see #config()
 */
public enum Scenario {
    /** The quick start: 400 hosts x 5 pages at 1 s, so a 200-thread pool is clearly the limit. */
    DEMO("400 hosts x 5 pages, 1 s: the quick-start demo",
            new FarmConfig(400, 5, 8, 0.1, 4_096, 42, LatencyModel.fixed(1_000), Faults.NONE, true, 0), 8),
    /** The seed benchmark as a crawl: 10,000 pages on 500 hosts, 300 ms; the per-host limit never binds. */
    SEED("500 hosts x 20 pages, 300 ms: the seed benchmark as a crawl",
            new FarmConfig(500, 20, 8, 0.1, 4_096, 42, LatencyModel.fixed(300), Faults.NONE, true, 0), 8),
    /** Like the seed's slow endpoint: 8,000 pages at 3 s, far below the CPU ceiling for a 200-thread pool. */
    SLOW("1,000 hosts x 8 pages, 3 s: a pool far below the CPU ceiling",
            new FarmConfig(1_000, 8, 16, 0.1, 4_096, 42, LatencyModel.fixed(3_000), Faults.NONE, true, 0), 8),
    /** Few hosts, many pages: the per-host limit binds in every mode. */
    POLITE("4 hosts x 1,000 pages, 100 ms: the per-host limit binds",
            new FarmConfig(4, 1_000, 10, 0.1, 4_096, 42, LatencyModel.fixed(100), Faults.NONE, true, 0), 8),
    /** Every fault knob on. */
    FAULTS("50 hosts x 40 pages, 50-300 ms, every fault knob on",
            new FarmConfig(50, 40, 10, 0.1, 4_096, 42, LatencyModel.uniform(50, 300), Faults.ALL, true, 0), 8),
    /** Many small sites, one-shot: 10,000 pages on 1,000 hosts, 300 ms; crawl to depth 2. */
    WIDE("1,000 hosts x 10 pages, 300 ms: many small sites (crawl --max-depth=2)",
            new FarmConfig(1_000, 10, 10, 0.1, 4_096, 42, LatencyModel.fixed(300), Faults.NONE, true, 0), 8),
    /** Fewer, bigger sites: 10,000 pages on 100 hosts, 300 ms; the per-host limit sets the pace. */
    DEEP("100 hosts x 100 pages, 300 ms: the per-host limit sets the pace (crawl --max-depth=2)",
            new FarmConfig(100, 100, 20, 0.1, 4_096, 42, LatencyModel.fixed(300), Faults.NONE, true, 0), 8),
    /**
     * {@link #DEEP} with the web's rough edges: 5% 500s, each page's once, 2% 429 with Retry-After 1 s, redirects,
     * a trap. Every page can be had within two retries, so a crawl that loses one lost it itself.
     */
    ROUGH("100 hosts x 100 pages, 300 ms, 5% 500 (once a page), 2% 429 (Retry-After 1 s), redirects, traps (crawl --max-depth=3)",
            new FarmConfig(100, 100, 20, 0.1, 4_096, 42, LatencyModel.fixed(300),
                    new Faults(0.05, 0.02, 1, 0, 0, 2_000, 0, 5 << 20, 0.05, 2, 0, true, 0, true), true, 0), 8),
    /** 100,000 pages on 1,000 hosts, 300 ms: memory, steadiness, every page stored. */
    HUGE("1,000 hosts x 100 pages, 300 ms: 100,000 pages (crawl --max-depth=2 --max-pages=200000)",
            new FarmConfig(1_000, 100, 20, 0.1, 4_096, 42, LatencyModel.fixed(300), Faults.NONE, true, 0), 8),
    /**
     * 10,000 pages on 100 hosts, 100 ms, that change while they are crawled: every minute 2.5% change a timestamp
     * and a counter and 2.5% their text; 0.5% go away and 0.5% move once in the first five minutes. For continuous
     * crawls ({@code bench --scenario=changing}).
     */
    CHANGING("100 hosts x 100 pages, 100 ms, 5% changing every minute, 1% gone or moved (crawl --revisit-min=30s)",
            new FarmConfig(100, 100, 20, 0.1, 4_096, 42, LatencyModel.fixed(100), Faults.NONE, true, 0,
                    new PageChanges.Spec(0.025, 0.025, 0.005, 0.005, Duration.ofMinutes(1), Duration.ofMinutes(5))), 8),
    /** 120,000 pages: memory and long-run behaviour. */
    LARGE("2,000 hosts x 60 pages, log-normal 200 ms: 120,000 pages",
            new FarmConfig(2_000, 60, 10, 0.1, 2_048, 42, LatencyModel.logNormal(200, 0.5), Faults.NONE, true, 0), 8);

    private final String description;
    private final FarmConfig config;
    private final int perHost;

    Scenario(String description, FarmConfig config, int perHost) {
        this.description = description;
        this.config = config;
        this.perHost = perHost;
    }

    public String description() {
        return description;
    }

    public FarmConfig config() {
        return config;
    }

    /** The per-host limit the scenario is described with. */
    public int perHost() {
        return perHost;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a scenario name, case-insensitively. */
    public static Scenario parse(String name) {
        for (Scenario s : values()) {
            if (s.name().equalsIgnoreCase(name == null ? "" : name.strip())) {
                return s;
            }
        }
        throw new IllegalArgumentException("scenario must be one of " + names() + "; was '" + name + "'");
    }

    /** Every scenario's name, comma-separated. */
    public static String names() {
        return Arrays.stream(values()).map(Scenario::label).collect(Collectors.joining(", "));
    }
}
