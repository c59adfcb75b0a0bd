package dev.loomcrawl.crawler.store;

import java.time.Instant;

/**
 * A stored URL as a continuous job revisits it: what identified its content at the last visit (to ask the
 * server conditionally, and to tell a change), and its revisit schedule.
 *
 * @param status the status of the last visit that stored content
 * @param visits visits so far, the first included
 * @param changes changes seen so far
 * @param watchedSince the first visit: changes per time watched estimate how often the page changes
 * @param intervalMillis the interval the schedule last chose; 0 when none has yet (then {@code nextVisitAt} is the
 *     time of the first visit, and the URL is due the job's least interval after it)
 * @param nextVisitAt when the URL is due again; null when it is not to be revisited (gone, moved)
 */
public record Visit(String etag, String lastModified, String digest, Long simhash, int status, int visits,
        int changes, Instant watchedSince, long intervalMillis, Instant nextVisitAt) {}
