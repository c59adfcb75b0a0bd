package dev.loomcrawl.crawler.revisit;

import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A stored URL as a job that revisits it holds it in memory: what identified its content at the last visit (to
 * ask the server conditionally, and to tell a change), and its schedule. Nothing of the schedule is stored: it
 * follows from the URL's change events ({@link RevisitSchedule#resumed}), so a visit that finds no change writes
 * its event and nothing else.
 *
 * @param status the HTTP status the stored row has: a revisit finding the same 404, 410 or redirect is no event
 *     of change
 * @param movedTo the redirect target the stored row has, or null
 * @param changes changes seen so far
 * @param watchedSince the first visit: changes per time watched estimate how often the page changes
 * @param intervalMillis the interval the schedule last chose
 * @param nextVisitAt when the URL is due again; null when it is not to be revisited (gone, moved)
 */
public record Visit(@Nullable String etag, @Nullable String lastModified, @Nullable String digest, @Nullable Long simhash,
        int status, @Nullable String movedTo, int changes, @Nullable Instant watchedSince, long intervalMillis,
        @Nullable Instant nextVisitAt) {

    /** This visit due at {@code value} instead. */
    public Visit withNextVisitAt(@Nullable Instant value) {
        return withSchedule(changes, intervalMillis, value);
    }

    /** This visit with a new schedule: what identifies its content stays. */
    public Visit withSchedule(int changesSeen, long interval, @Nullable Instant next) {
        return new Visit(etag, lastModified, digest, simhash, status, movedTo, changesSeen, watchedSince, interval, next);
    }

    /** What identifies {@code page}'s content and state, stored now, with a schedule. */
    public static Visit of(PageRecord page, int changes, @Nullable Instant watchedSince, long interval, @Nullable Instant next) {
        return new Visit(page.etag(), page.lastModified(), page.digest(), page.simhash(), page.status(),
                movedTo(page.status(), page.outlinks()), changes, watchedSince, interval, next);
    }

    /** The redirect target of a stored row: its first outlink when its status is 3xx, else null. */
    public static @Nullable String movedTo(int status, List<String> outlinks) {
        return status >= 300 && status < 400 && !outlinks.isEmpty() ? outlinks.getFirst() : null;
    }
}
