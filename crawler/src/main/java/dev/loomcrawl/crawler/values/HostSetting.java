package dev.loomcrawl.crawler.values;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What an operator set for one politeness key ({@code PUT /hosts/{key}}): any of a limit of requests in flight,
 * a minimum gap between two requests, and a pause until a time. A field left null keeps the default.
 *
 * @throws ConfigException naming the field ({@code limit}, {@code minDelayMs}, {@code pausedUntil}) when a
 *     value is out of its range
 */
public record HostSetting(@Nullable Integer limit, @Nullable Duration minDelay, @Nullable Instant pausedUntil) {
    /**
     * The farthest a pause may reach. A pause is kept as a monotonic-clock deadline in nanoseconds, which holds
     * about 292 years; a year is far beyond any operator's need and leaves no arithmetic near that edge.
     */
    public static final Duration LONGEST_PAUSE = Duration.ofDays(366);

    public HostSetting {
        if (limit != null && (limit < 1 || limit > 10_000)) {
            throw new ConfigException("limit", limit, "must be between 1 and 10000, was " + limit);
        }
        if (minDelay != null && (minDelay.isNegative() || minDelay.compareTo(Duration.ofHours(1)) > 0)) {
            throw new ConfigException("minDelayMs", minDelay.toMillis(),
                    "must be between 0 and 3600000 (1 hour), was " + minDelay.toMillis());
        }
        if (pausedUntil != null && pausedUntil.isAfter(Instant.now().plus(LONGEST_PAUSE))) {
            throw new ConfigException("pausedUntil", pausedUntil,
                    "must be at most " + LONGEST_PAUSE.toDays() + " days ahead, was " + pausedUntil);
        }
    }

    /** Whether the setting says nothing: the key is back to its defaults. */
    public boolean empty() {
        return limit == null && minDelay == null && pausedUntil == null;
    }
}
