package dev.loomcrawl.crawler.values;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One URL of a job as stored: a page, a redirect, a failure with its reason, or a URL skipped unfetched.
 *
 * <p>Its text is as {@link SafeText} keeps it, and cut to the widths the store's columns keep (the store's
 * {@code StoreTables}: a title of 1,024 characters, say), so that a row reads the same streamed to {@code --output}
 * as exported from the store.
 *
 * @param depth links from the nearest seed (the shortest path, whatever order fetches finished in)
 * @param status HTTP status of the response, or 0 when none arrived (or nothing was requested)
 * @param contentType the response's {@code Content-Type}, or null
 * @param bytes body bytes received (decoded); for a type not stored, its declared or counted size
 * @param fetchMillis request start to last body byte of the last attempt; 0 when nothing was requested
 * @param attempts requests made for this URL (retries included); 0 when it was skipped unfetched
 * @param failure the failure kind's label ({@code timeout}, {@code robots}, ...) or null for a page
 * @param detail what went wrong, in words; or where a redirect went
 * @param thread the thread that ran the URL's task ({@code crawl-vt-12}, {@code crawl-pool-3})
 * @param referrer the page that first linked to this URL (or redirected to it); null for seeds
 * @param outlinks the page's links, normalised, in page order, in scope or not
 * @param fields what extraction rules or a page handler found, by name: a string or a list of strings
 * @param canonical the page's {@code <link rel=canonical>} target, or null
 * @param body the decoded body when the job keeps bodies, else null
 * @param pageMillis dispatch of the URL's task to its result, so time queued for a pool thread counts
 * @param etag the response's {@code ETag} as the server sent it, or null
 * @param lastModified the response's {@code Last-Modified} as the server sent it, or null
 * @param digest SHA-256 of the body (decoded), 64 hex digits; null without a body
 * @param simhash a 64-bit SimHash of the page's visible text (the content package's {@code Fingerprints}); null for what is not HTML
 * @param content the page's main content and facts when its job keeps them ({@code --content}); null otherwise
 * @param noindex the page asks not to be indexed ({@code noindex} or {@code none} in a robots {@code <meta>} or an
 *     {@code X-Robots-Tag} that speaks to this crawler): its content is empty unless the job ignores that
 */
public record PageRecord(
        long jobId,
        String url,
        int depth,
        int status,
        @Nullable String contentType,
        @Nullable String title,
        int bytes,
        double fetchMillis,
        int attempts,
        @Nullable String failure,
        @Nullable String detail,
        Instant fetchedAt,
        String thread,
        @Nullable String referrer,
        List<String> outlinks,
        Map<String, Object> fields,
        @Nullable String canonical,
        byte @Nullable [] body,
        double pageMillis,
        @Nullable String etag,
        @Nullable String lastModified,
        @Nullable String digest,
        @Nullable Long simhash,
        @Nullable PageContent content,
        boolean noindex) {

    /** Failure labels of URLs that were skipped on purpose rather than failed. */
    private static final Set<String> SKIPS = Set.of("robots", "not-html");

    public PageRecord {
        outlinks = outlinks == null ? List.of() : outlinks;
        fields = fields == null ? Map.of() : SafeText.of(fields);
        contentType = cut(contentType, 256);
        title = cut(title, 1024);
        detail = cut(detail, 1024);
        thread = cut(thread, 64); // null in a row read back that was written without one
        referrer = cut(referrer, 4096);
        canonical = cut(canonical, 4096);
        etag = whole(etag, 1024);
        lastModified = whole(lastModified, 64);
    }

    /**
     * A validator as it came, or none: sent back cut or cleaned, it would name no version of the page (an
     * HTTP-date is 29 characters; an entity tag of a kilobyte names something other than a version).
     */
    private static @Nullable String whole(@Nullable String validator, int max) {
        return validator == null || validator.length() > max || !validator.equals(SafeText.of(validator)) ? null
                : validator;
    }

    /** {@code s} as {@link SafeText} keeps it, its first {@code max} characters, a surrogate pair never cut in two. */
    private static @Nullable String cut(@Nullable String s, int max) {
        s = SafeText.of(s);
        return s == null || s.length() <= max ? s
                : s.substring(0, Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max);
    }

    public Outcome outcome() {
        return outcomeOf(failure);
    }

    /** The outcome of a row with this failure label (null: a page). */
    public static Outcome outcomeOf(@Nullable String failure) {
        return failure == null ? Outcome.OK : SKIPS.contains(failure) ? Outcome.SKIPPED : Outcome.FAILED;
    }

    public boolean ok() {
        return failure == null;
    }

    /** A row of {@code url} in job {@code jobId}, built field by field; unset fields are 0, null or empty. */
    public static Builder of(long jobId, String url) {
        return new Builder(jobId, url);
    }

    /**
     * A URL recorded on sight, never requested: a link robots.txt forbids, or one that cannot be fetched as
     * written.
     *
     * @param failure the failure kind's label ({@code robots}, {@code invalid-url})
     */
    public static PageRecord onSight(long jobId, String url, int depth, @Nullable String referrer, @Nullable String failure,
            @Nullable String detail) {
        return of(jobId, url).depth(depth).failure(failure, detail).referrer(referrer).build();
    }

    /** A {@link PageRecord} by name. */
    public static final class Builder {
        private final long jobId;
        private final String url;
        private int depth;
        private int status;
        private @Nullable String contentType;
        private @Nullable String title;
        private int bytes;
        private double fetchMillis;
        private int attempts;
        private @Nullable String failure;
        private @Nullable String detail;
        /** In microseconds, as H2 and PostgreSQL keep it: a row read back equals the row as it was written. */
        private Instant fetchedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        private String thread = Thread.currentThread().getName();
        private @Nullable String referrer;
        private List<String> outlinks = List.of();
        private Map<String, Object> fields = Map.of();
        private @Nullable String canonical;
        private byte @Nullable [] body;
        private double pageMillis;
        private @Nullable String etag;
        private @Nullable String lastModified;
        private @Nullable String digest;
        private @Nullable Long simhash;
        private @Nullable PageContent content;
        private boolean noindex;

        private Builder(long jobId, String url) {
            this.jobId = jobId;
            this.url = url;
        }

        public Builder depth(int value) { depth = value; return this; }
        public Builder status(int value) { status = value; return this; }
        public Builder contentType(@Nullable String value) { contentType = value; return this; }
        public Builder title(@Nullable String value) { title = value; return this; }
        public Builder bytes(int value) { bytes = value; return this; }
        public Builder fetchMillis(double value) { fetchMillis = value; return this; }
        public Builder attempts(int value) { attempts = value; return this; }
        /** @param kind a failure kind's label, or null for a page */
        public Builder failure(@Nullable String kind, @Nullable String why) { failure = kind; detail = why; return this; }
        public Builder detail(@Nullable String value) { detail = value; return this; }
        public Builder fetchedAt(Instant value) { fetchedAt = value; return this; }
        public Builder thread(String value) { thread = value; return this; }
        public Builder referrer(@Nullable String value) { referrer = value; return this; }
        public Builder outlinks(List<String> value) { outlinks = value; return this; }
        public Builder fields(Map<String, Object> value) { fields = value; return this; }
        public Builder canonical(@Nullable String value) { canonical = value; return this; }
        public Builder body(byte @Nullable [] value) { body = value; return this; }
        public Builder pageMillis(double value) { pageMillis = value; return this; }
        public Builder etag(@Nullable String value) { etag = value; return this; }
        public Builder lastModified(@Nullable String value) { lastModified = value; return this; }
        public Builder digest(@Nullable String value) { digest = value; return this; }
        public Builder simhash(@Nullable Long value) { simhash = value; return this; }
        public Builder content(@Nullable PageContent value) { content = value; return this; }
        public Builder noindex(boolean value) { noindex = value; return this; }

        public PageRecord build() {
            return new PageRecord(jobId, url, depth, status, contentType, title, bytes, fetchMillis, attempts, failure,
                    detail, fetchedAt, thread, referrer, outlinks, fields, canonical, body, pageMillis, etag, lastModified,
                    digest, simhash, content, noindex);
        }
    }

    /** This record at another depth: a shorter path was found. */
    public PageRecord withDepth(int value) {
        return new PageRecord(jobId, url, value, status, contentType, title, bytes, fetchMillis, attempts, failure, detail,
                fetchedAt, thread, referrer, outlinks, fields, canonical, body, pageMillis, etag, lastModified, digest,
                simhash, content, noindex);
    }
}
