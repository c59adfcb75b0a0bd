package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.encoding.PageEncoding;
import dev.loomcrawl.crawler.values.FailureKind;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** What one HTTP exchange produced. A failed fetch is a value, not an exception. */
public sealed interface FetchResult {

    /** Request start to last body byte, in nanoseconds. */
    long nanos();

    /**
     * Request start to the response's headers, in nanoseconds (0: no response): how long the server took to answer.
     * A key's adaptive limit judges its server by it, as Scrapy's AutoThrottle does: the body's transfer is the
     * page's size and our own reading, which a busy crawl delays.
     */
    long answerNanos();

    /** Whether the server answered, with any status: a response's headers are in. */
    default boolean answered() {
        return !(this instanceof Failed f) || f.headers() != null;
    }

    /**
     * A response worth keeping: a page of a kept type (HTML, or a type the job accepts) with its decoded
     * body, or a redirect.
     *
     * @param contentType as served; {@code text/html} where the server gave none and the body is HTML by the MIME
     *     Sniffing Standard, as a browser reads it
     * @param body the decoded body; empty for a redirect
     * @param raw the body as received (still compressed), kept only for a WARC file; else null
     * @param cut whether the body is all of the page, or its first {@code maxBodyBytes} as a search engine reads a
     *     page longer than its limit
     */
    record Response(int status, HttpHeaders headers, String contentType, byte[] body, byte @Nullable [] raw, Cut cut,
            long nanos, long answerNanos) implements FetchResult {

        /** How much of the page the body is. */
        public enum Cut {
            /** All of it. */
            WHOLE,
            /** Its start: the bytes received are whole, but decoded they are longer than the limit. */
            DECODED,
            /** Its start: the bytes received were cut too, the rest not read. */
            RECEIVED
        }

        /** What a row says of a body cut at the limit; null for a whole one. */
        public @Nullable String cutNote() {
            return cut == Cut.WHOLE ? null : "cut at " + body.length + " bytes: the body limit";
        }

        /** A redirect: 3xx but 304, which says the page as the request's validators have it is current. */
        public boolean redirect() {
            return status >= 300 && status < 400 && status != 304;
        }

        /**
         * The {@code Location} header as a browser reads it. The JDK gives each of a header's bytes as one
         * character (ISO-8859-1); a browser reads bytes that are UTF-8 as UTF-8 (a server's {@code /café}) and
         * writes any other byte above 0x7F as {@code %XX}. The URL parser writes a character as its UTF-8
         * bytes, {@code %XX} each, and percent-decodes a host before reading it, so writing every byte above
         * 0x7F as {@code %XX} here gives the URL a browser goes to, either way.
         */
        public Optional<String> location() {
            return headers.firstValue("Location").map(Response::escapeHighBytes);
        }

        static String escapeHighBytes(String isomorphic) {
            if (isomorphic.chars().allMatch(c -> c < 0x80)) {
                return isomorphic;
            }
            StringBuilder text = new StringBuilder(isomorphic.length() * 3);
            for (int i = 0; i < isomorphic.length(); i++) {
                char c = isomorphic.charAt(i);
                if (c < 0x80) {
                    text.append(c);
                } else {
                    text.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
                }
            }
            return text.toString();
        }

        public boolean html() {
            return Bodies.isHtml(contentType());
        }

        /** The {@code charset} parameter of {@code Content-Type}, if there is one. */
        public Optional<String> charset() {
            return Optional.ofNullable(PageEncoding.charsetParameter(contentType()));
        }
    }

    /**
     * @param status the HTTP status if a response arrived, else 0
     * @param headers the response headers if one arrived, else null
     * @param bytes the body's size where known (a type not kept: its declared or counted length)
     * @param retryAfter the server's {@code Retry-After}, if it sent one
     * @param permanent not worth another try (a private address refused, a body that overran its deadline)
     */
    public record Failed(FailureKind kind, String detail, int status, @Nullable HttpHeaders headers, int bytes, long nanos,
            long answerNanos, @Nullable Duration retryAfter, boolean permanent, byte @Nullable [] raw)
            implements FetchResult {

        /** A failure without a response. */
        public Failed(FailureKind kind, String detail, long nanos, boolean permanent) {
            this(kind, detail, 0, null, 0, nanos, 0, null, permanent, null);
        }

        /** A response that failed, its body, if any, not kept (it is kept only for the WARC file). */
        public Failed(FailureKind kind, String detail, int status, HttpHeaders headers, int bytes, long nanos,
                long answerNanos, @Nullable Duration retryAfter, boolean permanent) {
            this(kind, detail, status, headers, bytes, nanos, answerNanos, retryAfter, permanent, null);
        }

        public static Failed of(FailureKind kind, String detail, long nanos) {
            return new Failed(kind, detail, nanos, false);
        }

        public @Nullable String contentType() {
            return headers == null || headers.firstValue("Content-Type").isEmpty() ? null : Bodies.contentType(headers);
        }
    }
}
