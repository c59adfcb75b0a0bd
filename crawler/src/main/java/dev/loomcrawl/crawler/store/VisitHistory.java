package dev.loomcrawl.crawler.store;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the store holds of a stored URL's visits, for a job that revisits it: its row's identity (the content
 * its last visit stored) and its change events summed up. The schedule is computed from it again on resume.
 *
 * @param fetchedAt when its row's content was fetched
 * @param visits its change events (each visit that told something made one); 0 for a one-pass job's URL
 * @param changes its {@code changed} events
 * @param firstVisit its first event's time, or null when it has none
 * @param lastVisit its last event's time, or null when it has none
 * @param ended its last event was {@code gone} or {@code moved}: it is not visited again
 */
public record VisitHistory(@Nullable String etag, @Nullable String lastModified, @Nullable String digest,
        @Nullable Long simhash, int status, @Nullable String movedTo, Instant fetchedAt, int visits, int changes,
        @Nullable Instant firstVisit, @Nullable Instant lastVisit, boolean ended) {}
