package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.ConfigException;
import java.util.Map;

/** Speaks of configuration fields the way the command line spells them. */
final class Flags {
    private static final Map<String, String> FLAG_BY_FIELD = Map.ofEntries(
            Map.entry("perHostConcurrency", "--per-host"),
            Map.entry("perHost", "--per-host"),
            Map.entry("poolSize", "--pool-size"),
            Map.entry("maxDepth", "--max-depth"),
            Map.entry("maxPages", "--max-pages"),
            Map.entry("maxInFlight", "--max-in-flight"),
            Map.entry("requestTimeout", "--timeout"),
            Map.entry("connectTimeout", "--connect-timeout"),
            Map.entry("maxRetries", "--retries"),
            Map.entry("hostDelay", "--host-delay-ms"),
            Map.entry("fetchDeadline", "--fetch-deadline"),
            Map.entry("robotsRetryFor", "--robots-retry-for"),
            Map.entry("maxBodyBytes", "--max-body-bytes"),
            Map.entry("maxRedirects", "--max-redirects"),
            Map.entry("userAgent", "--user-agent"),
            Map.entry("headers", "--header"),
            Map.entry("allowedHosts", "--allow-host"),
            Map.entry("allowedDomains", "--allow-domain"),
            Map.entry("denyPatterns", "--deny-url"),
            Map.entry("acceptTypes", "--accept-type"),
            Map.entry("extract", "--extract"),
            Map.entry("extractAll", "--extract-all"),
            Map.entry("warcFile", "--warc"),
            Map.entry("mode", "--mode"));

    private Flags() {}

    /**
     * {@code perHostConcurrency must be ...} becomes {@code --per-host must be ...}; a bad seed is said as
     * is, since the user just typed it.
     */
    static String describe(ConfigException e) {
        String field = e.field();
        if (field.startsWith("seeds[")) {
            return e.problem();
        }
        int cut = field.indexOf('.') >= 0 ? field.indexOf('.') : field.indexOf('[');
        String base = cut < 0 ? field : field.substring(0, cut);
        String flag = FLAG_BY_FIELD.get(base);
        if (flag == null) {
            return e.getMessage();
        }
        String rest = cut < 0 ? "" : field.substring(cut);
        return flag + (rest.startsWith(".") ? " " + rest.substring(1) : rest) + " " + e.problem();
    }
}
