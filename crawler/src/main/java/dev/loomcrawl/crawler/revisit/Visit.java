package dev.loomcrawl.crawler.revisit;

import java.time.Instant;

/**
 * A stored URL as a job that revisits it holds it in memory: what identified its content at the last visit (to
 * ask the server conditionally, and to tell a change), and its schedule. Nothing of the schedule is stored: it
 * follows from the URL's change events ({@link RevisitSchedule#resumed}), so a visit that finds no change writes
 * its event and nothing else.
 *
 * @param changes changes seen so far
 * @param watchedSince the first visit: changes per time watched estimate how often the page changes
 * @param intervalMillis the interval the schedule last chose
 * @param nextVisitAt when the URL is due again; null when it is not to be revisited (gone, moved)
 */
public record Visit(String etag, String lastModified, String digest, Long simhash, int changes, Instant watchedSince,
        long intervalMillis, Instant nextVisitAt) {

    /** This visit due at {@code value} instead. */
    public Visit withNextVisitAt(Instant value) {
        return new Visit(etag, lastModified, digest, simhash, changes, watchedSince, intervalMillis, value);
    }
}
