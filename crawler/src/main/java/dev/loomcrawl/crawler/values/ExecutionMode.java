package dev.loomcrawl.crawler.values;

import java.util.Locale;

/**
 * How URL tasks are run. This is the only thing that differs between the modes: the task code, the
 * HTTP client, the limits and the storage are the same ({@code CrawlThreads} builds the executor).
 */
public enum ExecutionMode {
    /** One new virtual thread per URL, never pooled: {@code crawl-vt-N}. */
    VIRTUAL,
    /** The same tasks on a fixed pool of platform threads: {@code crawl-pool-N}. */
    POOL;

    /** Parses {@code virtual} or {@code pool}, case-insensitively. */
    public static ExecutionMode parse(String text) {
        for (ExecutionMode mode : values()) {
            if (mode.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return mode;
            }
        }
        throw new ConfigException("mode", text, "must be 'virtual' or 'pool', was '" + text + "'");
    }

    /** Lower-case name as used on the command line and in JSON. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
