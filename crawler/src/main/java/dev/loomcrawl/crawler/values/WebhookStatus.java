package dev.loomcrawl.crawler.values;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Where a job's webhook stands, as the store has it: the same on every node of a cluster, and after the job
 * ended.
 *
 * @param delivered the last event the receiver took (0: none yet)
 * @param pending events stored after it, not yet taken, counted up to {@link #COUNTED}
 * @param failing why the receiver did not take the next event, in one line ("answered HTTP 503", "tls: ..."),
 *     while it keeps not taking it; null once it takes one
 * @param failingSince when the first of those tries failed, or null
 * @param tries how many tries of the next event have failed
 */
public record WebhookStatus(long delivered, long pending, @Nullable String failing, @Nullable Instant failingSince,
        int tries) {
    /** How many undelivered events are counted, at most: a count must not read a whole backlog each time it is asked. */
    public static final int COUNTED = 100_000;

    /** How long the receiver has refused the next event by {@code now}; zero while it takes them. */
    public Duration failingFor(Instant now) {
        return failingSince == null || failingSince.isAfter(now) ? Duration.ZERO : Duration.between(failingSince, now);
    }
}
