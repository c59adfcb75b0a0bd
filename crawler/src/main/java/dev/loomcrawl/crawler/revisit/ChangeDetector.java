package dev.loomcrawl.crawler.revisit;

import dev.loomcrawl.crawler.content.Fingerprints;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What one visit of a URL found, as a {@link Change}: {@code new} the first time; then {@code unchanged} (the
 * server answered 304, or the body's SHA-256 is the one stored), {@code changed} (with the SimHash distance,
 * {@code minor} within {@value Fingerprints#NEAR} bits), {@code moved} (a redirect, with its target) or
 * {@code gone} (404, 410, or a host name DNS no longer knows). An event is a change of state: a URL that was 404
 * or 410 and still is, or that redirects where it redirected, is {@code unchanged}. A visit that failed otherwise
 * (a timeout, a 5xx after its retries, a URL skipped without a request) tells nothing about the page: no event.
 */
public final class ChangeDetector {
    private ChangeDetector() {}

    /** The event of a first visit: {@code new}, for a URL that was requested; null for one recorded without a request. */
    public static @Nullable Change first(PageRecord page) {
        return page.attempts() > 0 ? event(page, Change.Kind.NEW, null, null, null) : null;
    }

    /** The event of a revisit that found {@code page}, the URL's last visit having found {@code previous}; or null. */
    public static @Nullable Change revisit(Visit previous, PageRecord page) {
        if (page.attempts() == 0) {
            return null; // no request was made (robots.txt, a host given up): nothing seen
        }
        int status = page.status();
        if (status == 304) {
            return event(page, Change.Kind.UNCHANGED, null, null, null);
        }
        if (status == 404 || status == 410 || hostGone(page)) {
            // an event is a change of state: a URL that was gone already is as it was
            boolean wasGone = previous.status() == 404 || previous.status() == 410;
            return event(page, wasGone ? Change.Kind.UNCHANGED : Change.Kind.GONE, null, null, null);
        }
        if (status >= 300 && status < 400) {
            String target = Visit.movedTo(status, page.outlinks());
            if (target == null) {
                return null;
            }
            return target.equals(previous.movedTo()) ? event(page, Change.Kind.UNCHANGED, null, null, null)
                    : event(page, Change.Kind.MOVED, null, null, target);
        }
        if (status < 200 || status >= 300 || page.digest() == null) {
            return null;
        }
        if (page.digest().equals(previous.digest())) {
            return event(page, Change.Kind.UNCHANGED, null, null, null);
        }
        Integer distance = page.simhash() == null || previous.simhash() == null ? null
                : Fingerprints.distance(page.simhash(), previous.simhash());
        String severity = distance != null && distance <= Fingerprints.NEAR ? "minor" : "major";
        return event(page, Change.Kind.CHANGED, distance, severity, null);
    }

    /** Whether a visit's event ends the URL's revisits: it is gone, or it moved (its target is crawled as a URL of its own). */
    public static boolean ends(@Nullable Change change) {
        return change != null && (change.kind() == Change.Kind.GONE || change.kind() == Change.Kind.MOVED);
    }

    /** Whether the visit stored content to keep: the row is rewritten (a change, a move, a page gone). */
    public static boolean rewrites(@Nullable Change change) {
        return change != null && change.kind() != Change.Kind.UNCHANGED;
    }

    /** A host DNS says does not exist: every URL of it is gone. */
    private static boolean hostGone(PageRecord page) {
        return page.status() == 0 && page.detail() != null && page.detail().startsWith("unknown host");
    }

    private static Change event(PageRecord page, Change.Kind kind, @Nullable Integer distance, @Nullable String severity,
            @Nullable String target) {
        return new Change(0, page.jobId(), page.url(), kind, Instant.now(), page.status(), distance, severity, target);
    }
}
