package dev.loomcrawl.crawler.revisit;

import dev.loomcrawl.crawler.store.VisitHistory;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * When a continuous job visits a stored URL again. The interval adapts to how often the page is seen to change,
 * always within the job's {@code revisit.min} and {@code revisit.max}:
 *
 * <ul>
 *   <li>until a first change is seen, each visit that finds none multiplies the interval by {@value #GROWTH}
 *       (from {@code min}): a page that never changes is soon visited rarely;</li>
 *   <li>once changes have been seen, the interval is half the mean time between them (the time the page has been
 *       watched divided by the changes seen, as Cho and Garcia-Molina estimate a change rate): shorter after a
 *       change, longer after each visit that finds none.</li>
 * </ul>
 *
 * Nutch's {@code AdaptiveFetchSchedule} grows and shrinks the interval by fixed rates instead (0.4 and 0.2 by
 * default); a page that changes every minute, visited every 30 s, finds no change every other visit, and fixed
 * rates then move its interval away from the minimum at every such visit.
 */
public final class RevisitSchedule {
    /** How much longer the next interval is after a visit that found no change, while none has been seen yet. */
    static final double GROWTH = 2.5;

    private RevisitSchedule() {}

    /** The schedule after a first visit that stored {@code page}: due {@code min} later. */
    public static Visit first(PageRecord page, Freshness.Revisit bounds, Instant now) {
        long interval = bounds.min().toMillis();
        return Visit.of(page, 0, now, interval, now.plusMillis(interval));
    }

    /**
     * The schedule after a revisit that found {@code change} (null: it told nothing) and, when the content was
     * rewritten, {@code page}. A gone or moved URL is not due again.
     */
    public static Visit next(Visit previous, @Nullable Change change, PageRecord page, Freshness.Revisit bounds, Instant now) {
        int changes = previous.changes() + (change != null && change.kind() == Change.Kind.CHANGED ? 1 : 0);
        long interval = interval(previous, changes, bounds, now);
        Instant next = ChangeDetector.ends(change) ? null : now.plusMillis(interval);
        boolean rewritten = ChangeDetector.rewrites(change) && page != null;
        return rewritten
                ? Visit.of(page, changes, previous.watchedSince(), interval, next)
                : previous.withSchedule(changes, interval, next);
    }

    private static long interval(Visit previous, int changes, Freshness.Revisit bounds, Instant now) {
        long min = bounds.min().toMillis();
        long max = bounds.max().toMillis();
        double wanted;
        if (changes == 0) {
            wanted = Math.max(previous.intervalMillis(), min) * GROWTH;
        } else {
            long watched = Math.max(1, Duration.between(previous.watchedSince(), now).toMillis());
            wanted = watched / (double) changes / 2;
        }
        return Math.clamp(Math.round(wanted), min, max);
    }

    /**
     * A stored URL's schedule as its visits left it, computed again from what the store holds (its row and its
     * change events) by the same rule as {@link #next}: after {@code v} visits without a change the interval is
     * {@code min} times {@value #GROWTH} to the {@code v - 1}; after changes, half the mean time between them at
     * the last visit. A URL of a one-pass job (no events) counts its row's fetch as its one visit.
     */
    public static Visit resumed(VisitHistory h, Freshness.Revisit bounds) {
        Instant first = h.firstVisit() != null ? h.firstVisit() : h.fetchedAt();
        Instant last = h.lastVisit() != null ? h.lastVisit() : h.fetchedAt();
        int visits = Math.max(1, h.visits());
        long min = bounds.min().toMillis();
        long max = bounds.max().toMillis();
        double wanted = h.changes() == 0 ? min * Math.pow(GROWTH, visits - 1)
                : Math.max(1, Duration.between(first, last).toMillis()) / (double) h.changes() / 2;
        long interval = Math.clamp(Math.round(Math.min(wanted, max)), min, max);
        return new Visit(h.etag(), h.lastModified(), h.digest(), h.simhash(), h.status(), h.movedTo(), h.changes(), first,
                interval, h.ended() ? null : last.plusMillis(interval));
    }
}
