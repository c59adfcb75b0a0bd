package dev.loomcrawl.crawler.politeness;

import java.time.Duration;
import java.time.Instant;

/**
 * What an operator set for one politeness key ({@code PUT /hosts/{key}}): any of a limit of requests in flight,
 * a minimum gap between two requests, and a pause until a time. A field left null keeps the default.
 */
public record HostSetting(Integer limit, Duration minDelay, Instant pausedUntil) {
    public HostSetting {
        if (limit != null && (limit < 1 || limit > 10_000)) {
            throw new IllegalArgumentException("limit must be between 1 and 10000, was " + limit);
        }
        if (minDelay != null && (minDelay.isNegative() || minDelay.compareTo(Duration.ofHours(1)) > 0)) {
            throw new IllegalArgumentException("minDelay must be between 0 and 1 hour, was " + minDelay);
        }
    }

    /** Whether the setting says nothing: the key is back to its defaults. */
    public boolean empty() {
        return limit == null && minDelay == null && pausedUntil == null;
    }
}
