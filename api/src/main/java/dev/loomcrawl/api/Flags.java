package dev.loomcrawl.api;

import java.util.Map;

/** Speaks of configuration fields the way the command line spells them. */
final class Flags {
    private static final Map<String, String> FLAG_BY_FIELD = Map.of(
            "perHostConcurrency", "--per-host",
            "poolSize", "--pool-size",
            "maxDepth", "--max-depth",
            "maxPages", "--max-pages",
            "maxInFlight", "--max-in-flight",
            "requestTimeout", "--timeout",
            "maxRetries", "--retries",
            "hostDelay", "--host-delay-ms",
            "fetchDeadline", "--fetch-deadline");

    private Flags() {}

    /** {@code "perHostConcurrency must be ..."} becomes {@code "--per-host must be ..."}. */
    static String rename(String message) {
        for (Map.Entry<String, String> e : FLAG_BY_FIELD.entrySet()) {
            if (message.startsWith(e.getKey() + " ")) {
                return e.getValue() + message.substring(e.getKey().length());
            }
        }
        return message;
    }
}
