package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.fetch.FetchResult.Response.Cut;
import dev.loomcrawl.crawler.fetch.Fetcher.Purpose;
import dev.loomcrawl.crawler.values.FailureKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a response becomes once its headers are in: a redirect, a failure by status (its {@code Retry-After}
 * read), a type the job does not keep (its size counted, its body not), a body over its limit, or a page,
 * decoded (gzip, deflate, br) and capped on both the bytes received and the decoded bytes, so a gzip bomb is
 * cut (HTML) or fails as {@code too-large} instead of filling the heap.
 */
final class ResponseReader {
    /** Sitemaps may be large (50,000 URLs, 50 MB uncompressed by the protocol). */
    static final int MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

    private final FetchSettings settings;

    ResponseReader(FetchSettings settings) {
        this.settings = settings;
    }

    /**
     * The result of {@code response}, its body read from {@code body}; {@code start} is when the fetch began,
     * {@code answerNanos} how long after it the headers came.
     */
    FetchResult read(HttpResponse<InputStream> response, InputStream body, long start, long answerNanos,
            Purpose purpose) throws IOException {
        int status = response.statusCode();
        HttpHeaders headers = response.headers();
        String contentType = Bodies.contentType(headers);
        if (status >= 300 && status < 400) {
            return new FetchResult.Response(status, headers, contentType, new byte[0], null, Cut.WHOLE,
                    System.nanoTime() - start, answerNanos);
        }
        if (status >= 400 || status < 200) {
            Duration retryAfter = RetryPolicy.parseRetryAfter(headers.firstValue("Retry-After").orElse(null),
                    ZonedDateTime.now());
            // The body of an error page is read only for the WARC file, which records responses as received.
            byte[] raw = settings.keepRaw() ? body.readNBytes(settings.maxBodyBytes()) : null;
            return new FetchResult.Failed(FailureKind.HTTP_STATUS, "HTTP " + status, status, headers,
                    raw == null ? 0 : raw.length, System.nanoTime() - start, answerNanos, retryAfter, false, raw);
        }
        if (Framing.twoWays(headers)) { // the same answer each time: not asked again
            return new FetchResult.Failed(FailureKind.PROTOCOL, (purpose == Purpose.ROBOTS ? "robots.txt: " : "")
                    + "the body's length given two ways (Transfer-Encoding and Content-Length): not read", status,
                    headers, 0, System.nanoTime() - start, answerNanos, null, true);
        }
        // a header sent twice lists codings applied one after the other, as one comma-separated value would
        String encoding = String.join(", ", headers.allValues("Content-Encoding")).strip().toLowerCase(Locale.ROOT);
        boolean encoded = !Bodies.codings(encoding).isEmpty();
        long declared = headers.firstValueAsLong("Content-Length").orElse(-1);
        int limit = switch (purpose) {
            case ROBOTS -> Fetcher.MAX_ROBOTS_BYTES;
            case SITEMAP -> MAX_SITEMAP_BYTES;
            case PAGE -> settings.maxBodyBytes();
        };
        boolean untyped = purpose == Purpose.PAGE && Bodies.isUnknown(contentType);
        if (purpose == Purpose.PAGE && !untyped && !kept(contentType)) {
            int size;
            if (encoded) { // the size as served is the decoded one
                byte[] raw = body.readNBytes(limit + 1);
                byte[] decoded = Bodies.decode(raw, encoding, limit + 1, raw.length > limit);
                size = Math.min(limit, decoded == null ? raw.length : decoded.length);
            } else {
                size = declared >= 0 ? (int) Math.min(declared, Integer.MAX_VALUE) : Bodies.count(body, limit);
            }
            return notKept(contentType, "", status, headers, size, start, answerNanos);
        }
        if (purpose == Purpose.PAGE && !untyped && !Bodies.isHtml(contentType) && declared > limit) {
            return tooLarge(status, headers, start, answerNanos, "body of " + declared + " bytes is over " + limit);
        }
        byte[] raw = Bodies.read(body, declared, limit + 1);
        byte[] decoded = Bodies.decode(raw, encoding, limit + 1, raw.length > limit);
        if (untyped) { // as a browser does, the body says whether it is HTML
            if (decoded != null && Bodies.looksLikeHtml(decoded)) {
                contentType = "text/html";
            } else if (!kept(contentType)) {
                return notKept(contentType, " and a body that is not HTML", status, headers,
                        Math.min(limit, decoded == null ? raw.length : decoded.length), start, answerNanos);
            }
        }
        boolean over = raw.length > limit || decoded != null && decoded.length > limit;
        // An HTML page longer than the limit is cut there, as search engines read one (Google its first 15 MB): its
        // links and text up to the limit are worth more than nothing. Any other type cut is of no use (a PDF without
        // its end), and a sitemap is refused. robots.txt is handed on whole, a byte over: RFC 9309's parser reads
        // what fits and says it was cut.
        boolean cut = over && purpose == Purpose.PAGE && Bodies.isHtml(contentType);
        if (over && !cut && purpose != Purpose.ROBOTS) {
            return tooLarge(status, headers, start, answerNanos, raw.length > limit ? "body over " + limit + " bytes"
                    : "decoded body over " + limit + " bytes (" + encoding + ")");
        }
        if (decoded == null) {
            return new FetchResult.Failed(FailureKind.PROTOCOL, "cannot decode Content-Encoding: " + encoding, status,
                    headers, raw.length, System.nanoTime() - start, answerNanos, null, false,
                    settings.keepRaw() ? raw : null);
        }
        Cut part = !cut ? Cut.WHOLE : raw.length > limit ? Cut.RECEIVED : Cut.DECODED;
        if (cut) {
            raw = Arrays.copyOf(raw, Math.min(raw.length, limit));
            decoded = Arrays.copyOf(decoded, Math.min(decoded.length, limit));
        }
        return new FetchResult.Response(status, headers, contentType, decoded, settings.keepRaw() ? raw : null, part,
                System.nanoTime() - start, answerNanos);
    }

    /** A type the job does not keep: counted, {@code size} bytes, and skipped. */
    private static FetchResult notKept(String contentType, String why, int status, HttpHeaders headers, int size,
            long start, long answerNanos) {
        return new FetchResult.Failed(FailureKind.NOT_HTML, (contentType.isEmpty() ? "no content type" : contentType)
                + why + ", not kept", status, headers, size, System.nanoTime() - start, answerNanos, null, false);
    }

    private static FetchResult tooLarge(int status, HttpHeaders headers, long start, long answerNanos, String detail) {
        return new FetchResult.Failed(FailureKind.TOO_LARGE, detail, status, headers, 0, System.nanoTime() - start,
                answerNanos, null, false);
    }

    /** Whether the job keeps bodies of this type: HTML always, others when accepted. */
    boolean kept(String contentType) {
        if (Bodies.isHtml(contentType)) {
            return true;
        }
        String type = Bodies.mediaType(contentType);
        for (String accepted : settings.acceptTypes()) {
            if (accepted.equals(type) || accepted.equals("*/*")
                    || accepted.endsWith("/*") && type.startsWith(accepted.substring(0, accepted.length() - 1))) {
                return true;
            }
        }
        return false;
    }
}
