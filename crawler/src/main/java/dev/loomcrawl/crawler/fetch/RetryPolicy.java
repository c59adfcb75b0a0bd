package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.FailureKind;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Which failures are worth another try, when, and what they say about the host.
 *
 * <p>A failure backs off its own URL, not its host: one 500 among a host's pages does not stop the rest.
 * Only the server's own request to rest ({@code Retry-After}, on a 429, 503 or any answer) rests the host,
 * for every job of the process, for just that long; a run of URLs failing in a row rests it with backoff,
 * and a longer run gives it up (a URL failing again counts once; the failures of requests already on their way
 * when one came back count once, and cost their URLs no retry while the host answers nothing good:
 * {@code FailureRun}).
 * Retryable: connect errors, resets, header timeouts (a timeout may be our own queueing, which must never
 * lose a page), 429 and 5xx. Never: other 4xx, protocol errors, bodies too large or too slow.
 */
public final class RetryPolicy {
    static final Duration BASE_BACKOFF = Duration.ofMillis(500);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A server asking for a longer rest than this gets its URL failed instead of a crawl that stalls. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);
    /** What a {@code Retry-After} of more seconds than a long holds asks for: longer than any cap. */
    private static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L);
    /** URLs failing in a row after which a host rests, with backoff, before its next request. */
    public static final int TROUBLE_RUN = 3;
    /**
     * A failure whose answer says when to come back ({@code Retry-After}, on a 429 or 503) may be retried this
     * many times the configured retries: the server asked for a pause, not for the URL to be dropped, and at
     * a farm's 2% of random 429s three attempts in a row lose a page now and then.
     */
    static final int RETRY_AFTER_FACTOR = 3;

    /**
     * What a response says about its host.
     *
     * @param trouble the failure's kind if it was server trouble (it counts towards resting and giving the
     *     host up), else null
     * @param rest how long the server asked the host to be left alone
     * @param restAsked whether the failure carried a {@code Retry-After}, even of none: the server asking to be
     *     asked later, which costs its URL no retry of those its other failures have ({@link #retryIn})
     * @param hostGone why no URL of the host can be fetched at all (DNS has no such name, a private address
     *     refused), or null
     * @param nanos how long the server took to answer ({@link FetchResult#answerNanos}), for the key's adaptive
     *     limit (0: unknown, or no answer)
     */
    public record HostSignal(@Nullable FailureKind trouble, Duration rest, boolean restAsked, @Nullable String hostGone,
            long nanos) {
        public static final HostSignal OK = new HostSignal(null, Duration.ZERO, false, null, 0);

        public HostSignal(@Nullable FailureKind trouble, Duration rest) {
            this(trouble, rest, !rest.isZero(), null, 0);
        }
    }

    private RetryPolicy() {}

    /**
     * The rest a response asks for, read from its status and headers alone (as they arrive, before the
     * body): a failure status with a {@code Retry-After}, capped as {@link #signal} caps it; else zero.
     */
    public static Duration restAsked(int status, java.net.http.HttpHeaders headers) {
        if (status >= 200 && status < 400) {
            return Duration.ZERO;
        }
        Duration asked = parseRetryAfter(headers.firstValue("Retry-After").orElse(null), ZonedDateTime.now());
        return asked == null ? Duration.ZERO : asked.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : asked;
    }

    public static HostSignal signal(FetchResult result) {
        if (!(result instanceof FetchResult.Failed failed)) {
            return new HostSignal(null, Duration.ZERO, false, null, result.answerNanos());
        }
        Duration rest = failed.retryAfter() == null ? Duration.ZERO
                : failed.retryAfter().compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : failed.retryAfter();
        String gone = failed.permanent() && failed.kind() == FailureKind.CONNECT ? failed.detail() : null;
        return new HostSignal(serverTrouble(failed) ? failed.kind() : null, rest, failed.retryAfter() != null, gone,
                failed.answerNanos());
    }

    /**
     * When to try this URL again after {@code attempt} attempts charged to it ({@code Lease.charged}: not those that
     * only repeated its host's trouble, and for a failure without a {@code Retry-After} not those answered with
     * one), or null when it is done (succeeded, not retryable, out of retries, or the server asks for more than
     * {@link #MAX_RETRY_AFTER}). An answer with a {@code Retry-After} has {@link #RETRY_AFTER_FACTOR} times the
     * retries. So a URL answered 429, 429 and then 500 still has a retry for the 500: the server asked twice to be
     * asked later, and failed once.
     */
    public static @Nullable Duration retryIn(FetchResult result, int attempt, int maxRetries) {
        if (!(result instanceof FetchResult.Failed failed) || failed.permanent() || !retryable(failed)) {
            return null;
        }
        if (failed.retryAfter() != null) {
            return attempt > maxRetries * RETRY_AFTER_FACTOR || failed.retryAfter().compareTo(MAX_RETRY_AFTER) > 0
                    ? null : failed.retryAfter();
        }
        return attempt > maxRetries ? null : backoff(attempt);
    }

    static boolean retryable(FetchResult.Failed failed) {
        return switch (failed.kind()) {
            case CONNECT, RESET, TIMEOUT -> true;
            // >= 500, not 5xx alone: RFC 9110 (15) has a status over 599 (LinkedIn's 999) handled as a 5xx
            case HTTP_STATUS -> failed.status() == 429 || failed.status() >= 500;
            default -> false;
        };
    }

    /**
     * Trouble on the server's side (connect errors, resets, timeouts, 5xx, 429): counts towards resting and
     * giving up its host. A 404 or a page too large says nothing about the host's health.
     */
    static boolean serverTrouble(FetchResult.Failed failed) {
        return retryable(failed) || failed.kind() == FailureKind.TIMEOUT;
    }

    /** 0.5 s, 1 s, 2 s ... up to {@link #MAX_BACKOFF}, each within ±50% so a crowd does not return at once. */
    public static Duration backoff(int attempt) {
        long base = BASE_BACKOFF.toMillis() << Math.min(Math.max(attempt, 1) - 1, 10);
        double jitter = 0.5 + ThreadLocalRandom.current().nextDouble(); // 0.5 .. 1.5
        return Duration.ofMillis(Math.min(MAX_BACKOFF.toMillis(), Math.round(base * jitter)));
    }

    /**
     * Parses {@code Retry-After}: delay-seconds or an HTTP date (RFC 9110 10.2.3). Null when absent or
     * unreadable; a date in the past means no wait.
     */
    public static @Nullable Duration parseRetryAfter(@Nullable String value, ZonedDateTime now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            // delay-seconds is any run of digits; one too long for a long asks for more than any cap allows
            String digits = v.replaceFirst("^0+(?=.)", "");
            return digits.length() > 18 ? FOREVER : Duration.ofSeconds(Long.parseLong(digits));
        }
        try {
            Duration until = Duration.between(now, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
            return until.isNegative() ? Duration.ZERO : until;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
