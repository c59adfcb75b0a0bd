package dev.loomcrawl.crawler;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Which failures are worth another try, and how long the host rests first.
 *
 * <p>Retryable: connect errors, resets, 5xx and 429; never 4xx, timeouts of a slow server we already
 * waited for, protocol errors, or anything robots.txt decided. A {@code Retry-After} header is obeyed
 * (seconds or an HTTP date) up to {@link #MAX_RETRY_AFTER}; otherwise backoff doubles from
 * {@link #BASE_BACKOFF} with ±50% jitter, so a crowd of URLs does not come back at the same instant.
 */
final class RetryPolicy {
    static final Duration BASE_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A server asking for a longer rest than this gets its URL failed instead of a crawl that stalls. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);

    private RetryPolicy() {}

    static boolean retryable(FetchResult.Failed failed) {
        return switch (failed.kind()) {
            case CONNECT, RESET -> true;
            case HTTP_STATUS -> failed.status() == 429 || failed.status() >= 500;
            default -> false;
        };
    }

    /**
     * Trouble on the server's side (connect errors, resets, timeouts, 5xx, 429): counts towards giving
     * its host up. A 404 or a page too large says nothing about the host's health.
     */
    static boolean serverTrouble(FetchResult.Failed failed) {
        return retryable(failed) || failed.kind() == FailureKind.TIMEOUT;
    }

    /** How long the host rests before attempt {@code attempt + 1}; null if Retry-After asks too much. */
    static Duration pause(FetchResult.Failed failed, int attempt) {
        if (failed.retryAfter() != null) {
            return failed.retryAfter().compareTo(MAX_RETRY_AFTER) > 0 ? null : failed.retryAfter();
        }
        long base = BASE_BACKOFF.toMillis() << Math.min(attempt - 1, 10);
        double jitter = 0.5 + ThreadLocalRandom.current().nextDouble(); // 0.5 .. 1.5
        return Duration.ofMillis(Math.min(MAX_BACKOFF.toMillis(), Math.round(base * jitter)));
    }

    /**
     * Parses {@code Retry-After}: delay-seconds or an HTTP date (RFC 9110 10.2.3). Null when absent or
     * unreadable; a date in the past means no wait.
     */
    static Duration parseRetryAfter(String value, ZonedDateTime now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        try {
            long seconds = Long.parseLong(v);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException notSeconds) {
            try {
                Duration until = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
                return until.isNegative() ? Duration.ZERO : until;
            } catch (DateTimeParseException e) {
                return null;
            }
        }
    }
}
