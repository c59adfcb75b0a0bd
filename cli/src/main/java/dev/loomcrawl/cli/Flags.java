package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.FileErrors;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/** Speaks of configuration fields the way the command line spells them. */
final class Flags {
    private static final Map<String, String> FLAG_BY_FIELD = Map.ofEntries(
            Map.entry("perHostConcurrency", "--per-host"),
            Map.entry("perHost", "--per-host"),
            Map.entry("politenessKey", "--politeness-key"),
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
            Map.entry("allowPatterns", "--allow-url"),
            Map.entry("denyPatterns", "--deny-url"),
            Map.entry("acceptTypes", "--accept-type"),
            Map.entry("extract", "--extract"),
            Map.entry("extractAll", "--extract-all"),
            Map.entry("warcFile", "--warc"),
            Map.entry("content", "--content"),
            Map.entry("contentMaxChars", "--content-max-chars"),
            Map.entry("mode", "--mode"),
            Map.entry("revisit", "--revisit-min/--revisit-max"),
            Map.entry("revisit.min", "--revisit-min"),
            Map.entry("revisit.max", "--revisit-max"),
            Map.entry("webhook", "--webhook-url/--webhook-secret"),
            Map.entry("webhook.url", "--webhook-url"),
            Map.entry("webhook.secret", "--webhook-secret"),
            Map.entry("proxy", "--proxy"),
            Map.entry("caCert", "--ca-cert"),
            Map.entry("cookies", "--cookies"));

    private Flags() {}

    /** {@code markdown}, {@code text} or {@code none}; else a one-line error naming {@code flag}. */
    static dev.loomcrawl.crawler.values.ContentFormat contentFormat(String flag, String value) {
        try {
            return dev.loomcrawl.crawler.values.ContentFormat.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + " " + e.getMessage());
        }
    }

    /** {@code FLAG: cannot write TARGET: REASON}, the reason in words (NIO's exceptions carry only the path). */
    static IllegalArgumentException cannotWrite(String flag, Object target, IOException e) {
        return new IllegalArgumentException(flag + ": cannot write " + target + ": " + FileErrors.reason(e));
    }

    /**
     * A duration as people type it: a number and a unit ({@code 500ms}, {@code 30s}, {@code 1m}, {@code 2h},
     * {@code 7d}) or ISO-8601 ({@code PT1M}, {@code P7D}).
     *
     * @throws IllegalArgumentException naming {@code flag} and the value
     */
    static java.time.Duration duration(String flag, String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)").matcher(t);
        if (m.matches()) {
            double n = Double.parseDouble(m.group(1));
            long unitMillis = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                case "h" -> 3_600_000;
                default -> 86_400_000;
            };
            return java.time.Duration.ofMillis(Math.round(Math.min(n * unitMillis, 1e15)));
        }
        try {
            return java.time.Duration.parse(text.strip().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + " must be a duration like 30s, 1m, 2h or 7d, was '" + text + "'");
        }
    }

    /**
     * {@code perHostConcurrency must be ...} becomes {@code --per-host must be ...}; a bad seed is said as
     * is, since the user just typed it.
     */
    static String describe(ConfigException e) {
        String field = e.field();
        if (field.startsWith("seeds[")) {
            return e.problem();
        }
        if (FLAG_BY_FIELD.get(field) instanceof String whole) {
            return whole + " " + e.problem();
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
