package dev.loomcrawl.mocksites;

/**
 * Fault knobs. Rates are fractions of page requests (0 to 1), drawn at random per request, so a retry
 * of a failed URL can succeed; link-shaping rates are fractions of links, fixed by the graph's seed.
 *
 * @param serverError 500/502/503 answers
 * @param tooManyRequests 429 answers carrying {@code Retry-After: retryAfterSeconds}
 * @param connectionFault connection reset, empty response, malformed chunk, or random data then close, in turn
 * @param slowDribble bodies sent in chunks spread over {@code dribbleMillis}
 * @param oversized bodies of {@code oversizedBytes}
 * @param redirectLinks links that go through a chain of {@code redirectHops} redirects to their page
 * @param nonHtmlLinks pages that link to a PDF
 * @param trap whether every host has an endless calendar of new URLs under {@code /calendar/}
 * @param robotsServerError robots.txt answers 503 at this rate
 * @param serverErrorOnce whether a page answers with a server error ({@code serverError}) at most once, its retry
 *     getting the page, as a server's incident does: every page can then be had within a crawler's retries, so a
 *     page lost is the crawler's; otherwise a page may draw one on every try
 */
public record Faults(
        double serverError,
        double tooManyRequests,
        int retryAfterSeconds,
        double connectionFault,
        double slowDribble,
        int dribbleMillis,
        double oversized,
        int oversizedBytes,
        double redirectLinks,
        int redirectHops,
        double nonHtmlLinks,
        boolean trap,
        double robotsServerError,
        boolean serverErrorOnce) {

    public static final Faults NONE = new Faults(0, 0, 1, 0, 0, 2_000, 0, 5 << 20, 0, 2, 0, false, 0, false);

    /** Every knob on, at rates a crawl of a few thousand pages meets each of them many times. */
    public static final Faults ALL = new Faults(0.03, 0.02, 1, 0.04, 0.01, 2_000, 0.01, 5 << 20, 0.05, 3, 0.05,
            true, 0.0, false);

    public Faults {
        for (double rate : new double[] {serverError, tooManyRequests, connectionFault, slowDribble, oversized,
                redirectLinks, nonHtmlLinks, robotsServerError}) {
            if (rate < 0 || rate > 1) {
                throw new IllegalArgumentException("fault rates must be between 0 and 1, was " + rate);
            }
        }
        if (serverError + tooManyRequests + connectionFault + slowDribble + oversized > 1) {
            throw new IllegalArgumentException("per-request fault rates add up to more than 1");
        }
        if (retryAfterSeconds < 0 || dribbleMillis < 0 || oversizedBytes < 0 || redirectHops < 1) {
            throw new IllegalArgumentException("fault sizes must be positive");
        }
    }

    boolean any() {
        return !equals(NONE);
    }
}
