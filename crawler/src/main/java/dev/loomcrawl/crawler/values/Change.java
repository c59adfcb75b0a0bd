package dev.loomcrawl.crawler.values;

import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a visit of a URL found, as the change feed tells it: a first visit is {@link Kind#NEW}; a revisit is
 * {@link Kind#UNCHANGED}, {@link Kind#CHANGED}, {@link Kind#MOVED} or {@link Kind#GONE}.
 *
 * @param id the event's number, increasing in the order events were stored (0 until stored)
 * @param status the HTTP status the visit got (304 for an unchanged page the server said so of; 0: no answer)
 * @param distance for {@code changed}: bits between the old and new SimHash; null when either is unknown
 * @param severity for {@code changed}: {@code minor} (distance at most 3) or {@code major}; else null
 * @param target for {@code moved}: where the redirect points
 */
public record Change(long id, long jobId, String url, Kind kind, Instant at, int status, @Nullable Integer distance,
        @Nullable String severity, @Nullable String target) {

    /** The kinds of change events. */
    public enum Kind {
        NEW, UNCHANGED, CHANGED, MOVED, GONE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The kind of a label, as stored. */
        public static Kind of(String label) {
            return valueOf(label.toUpperCase(Locale.ROOT));
        }
    }

    /** This event with the id the store gave it. */
    public Change withId(long value) {
        return new Change(value, jobId, url, kind, at, status, distance, severity, target);
    }
}
