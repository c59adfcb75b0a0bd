package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.revisit.ChangeDetector;
import dev.loomcrawl.crawler.revisit.RevisitSchedule;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.store.VisitHistory;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What a job's frontier does with a URL once it is stored: nothing more (a one-pass job), visit it again when
 * due (a continuous job), or visit it once more (a recrawl). The one place that decides a visit's event and the
 * URL's next visit, for both backends.
 */
public final class Revisits {
    /** A recrawl's bounds: its visits' schedule is computed, and never followed. */
    private static final Freshness.Revisit ONCE_BOUNDS = new Freshness.Revisit(Duration.ofMinutes(1), Duration.ofDays(365));

    private enum Mode { NONE, CONTINUOUS, ONCE }

    private final Mode mode;
    private final Freshness.Revisit bounds;

    private Revisits(Mode mode, Freshness.Revisit bounds) {
        this.mode = mode;
        this.bounds = bounds;
    }

    /** As the job's config says: continuous when it has {@code revisit} bounds, else one pass. */
    public static Revisits of(CrawlConfig config) {
        Freshness.Revisit revisit = config.freshness().revisit();
        // A one-pass job never reads its bounds: ONCE_BOUNDS only fills the field.
        return revisit == null ? new Revisits(Mode.NONE, ONCE_BOUNDS) : new Revisits(Mode.CONTINUOUS, revisit);
    }

    /** A recrawl: every stored URL visited once more, new URLs once; then the job ends. */
    public static Revisits once() {
        return new Revisits(Mode.ONCE, ONCE_BOUNDS);
    }

    /** Whether stored URLs are visited again, so a resumed job needs their last visits. */
    public boolean revisits() {
        return mode != Mode.NONE;
    }

    /**
     * What a visit found, and when the URL is due next.
     *
     * @param change its event, or null (one pass; or a visit that told nothing)
     * @param next the URL's schedule after the visit (its {@code nextVisitAt} null: not due again); null on a
     *     one-pass job
     * @param rewrite for a revisit, the row to store in place of the old one, or null to keep the old one
     */
    public record Visited(@Nullable Change change, @Nullable Visit next, @Nullable PageRecord rewrite) {
        /** Whether the URL goes back in its queue, for a later visit. */
        boolean due() {
            return next != null && next.nextVisitAt() != null;
        }
    }

    /** A one-pass job's visit: no event, no next visit. */
    private static final Visited ONE_PASS = new Visited(null, null, null);

    /** The outcome of the visit that found {@code page}; {@code previous} is the last visit's, null the first time. */
    Visited visited(@Nullable Visit previous, PageRecord page) {
        if (mode == Mode.NONE) {
            return ONE_PASS;
        }
        Instant now = Instant.now();
        if (previous == null) {
            Change change = ChangeDetector.first(page);
            boolean scheduled = mode == Mode.CONTINUOUS && change != null && firstVisitKept(page);
            return new Visited(change, scheduled ? RevisitSchedule.first(page, bounds, now) : null, page);
        }
        Change change = ChangeDetector.revisit(previous, page);
        Visit next = RevisitSchedule.next(previous, change, page, bounds, now);
        if (mode == Mode.ONCE) {
            next = next.withNextVisitAt(null);
        }
        return new Visited(change, next, ChangeDetector.rewrites(change) ? page : null);
    }

    /** A first visit worth another: not a redirect, nor a page already missing. */
    private static boolean firstVisitKept(PageRecord page) {
        int status = page.status();
        return !(status >= 300 && status < 400) && status != 404 && status != 410;
    }

    /**
     * A stored URL a stopped process left, as this job visits it again: due now in a recrawl, else when its
     * schedule says; null when it is not visited again (a one-pass job, a URL gone or moved, none fetched).
     */
    @Nullable Visit resumed(@Nullable VisitHistory history) {
        if (mode == Mode.NONE || history == null) {
            return null;
        }
        Visit visit = RevisitSchedule.resumed(history, bounds);
        if (mode == Mode.ONCE) {
            return visit.withNextVisitAt(Instant.now());
        }
        return visit.nextVisitAt() == null ? null : visit;
    }

    /** The {@link System#nanoTime} at which {@code visit} is due. */
    static long dueNanos(Visit visit, Instant now, long nowNanos) {
        return nowNanos + Math.max(0, Duration.between(now, visit.nextVisitAt()).toNanos());
    }
}
