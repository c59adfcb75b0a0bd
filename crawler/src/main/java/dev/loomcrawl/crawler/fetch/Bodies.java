package dev.loomcrawl.crawler.fetch;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.brotli.dec.BrotliInputStream;
import org.jspecify.annotations.Nullable;

/** A response body as the fetcher takes it: read up to a cap, counted when not kept, decoded, typed. */
final class Bodies {
    /** The tags whose opening, after white space, makes a browser read an untyped body as HTML. */
    private static final byte[][] HTML_STARTS = Stream.of("<!DOCTYPE HTML", "<HTML", "<HEAD",
            "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P",
            "<!--").map(t -> t.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private Bodies() {}

    /**
     * Up to {@code max} bytes of the body, in an array of the declared length when there is one, else read
     * into 8 KB first ({@code readNBytes(max)} alone reads into a 16 KB chunk and copies it out: four times
     * a small page's size in garbage).
     */
    static byte[] read(InputStream body, long declared, int max) throws IOException {
        boolean known = declared >= 0 && declared < max;
        byte[] first = new byte[known ? (int) declared : Math.min(max, 8_192)];
        int n = body.readNBytes(first, 0, first.length);
        if (n < first.length) {
            return Arrays.copyOf(first, n);
        }
        int next = n == max ? -1 : body.read(); // end of stream, when the length was true
        if (next < 0) {
            return first;
        }
        byte[] more = body.readNBytes(max - first.length - 1);
        byte[] all = Arrays.copyOf(first, first.length + 1 + more.length);
        all[first.length] = (byte) next;
        System.arraycopy(more, 0, all, first.length + 1, more.length);
        return all;
    }

    /**
     * The response's {@code Content-Type} as the Fetch Standard extracts it: of its values (headers sent twice,
     * values joined by commas), the last that is a MIME type, as a browser takes it; "" when it has none.
     */
    static String contentType(HttpHeaders headers) {
        List<String> values = headers.allValues("Content-Type");
        if (values.size() == 1 && values.getFirst().indexOf(',') < 0) {
            return values.getFirst(); // as nearly every server sends it
        }
        String last = "";
        for (String value : values) {
            for (String part : value.split(",")) {
                String type = mediaType(part);
                int slash = type.indexOf('/');
                if (slash > 0 && slash < type.length() - 1 && !type.equals("*/*")) {
                    last = part.strip();
                }
            }
        }
        return last;
    }

    static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    static boolean isHtml(String contentType) {
        String type = mediaType(contentType);
        return type.equals("text/html") || type.equals("application/xhtml+xml");
    }

    /** Whether {@code contentType} says nothing, so a browser sniffs the body (MIME Sniffing Standard, 7). */
    static boolean isUnknown(String contentType) {
        String type = mediaType(contentType);
        return type.isEmpty() || type.equals("unknown/unknown") || type.equals("application/unknown")
                || type.equals("*/*");
    }

    /**
     * Whether a browser reads {@code body}, served with no type, as HTML: the MIME Sniffing Standard's HTML
     * patterns, one of {@link #HTML_STARTS} in any case after white space, then a space or {@code >}.
     */
    static boolean looksLikeHtml(byte[] body) {
        int at = 0;
        while (at < body.length && (body[at] == ' ' || body[at] == '\t' || body[at] == '\n' || body[at] == '\f'
                || body[at] == '\r')) {
            at++;
        }
        for (byte[] tag : HTML_STARTS) {
            int end = at + tag.length;
            if (end < body.length && (body[end] == ' ' || body[end] == '>') && startsWithIgnoringCase(body, at, tag)) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWithIgnoringCase(byte[] body, int at, byte[] tag) {
        for (int i = 0; i < tag.length; i++) {
            byte b = body[at + i];
            if ((b >= 'a' && b <= 'z' ? b - 32 : b) != tag[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reads and throws away up to {@code limit} bytes; returns how many there were. */
    static int count(InputStream body, int limit) throws IOException {
        byte[] sink = new byte[8_192];
        long total = 0;
        int n;
        while (total <= limit && (n = body.read(sink)) > 0) {
            total += n;
        }
        return (int) Math.min(limit, total);
    }

    /**
     * Decodes {@code Content-Encoding} {@code encoding}: gzip, deflate (zlib-wrapped or raw, as servers send
     * both) and br, or several in the order applied ({@code gzip, br}: br last, so undone first), reading at
     * most {@code limit} decoded bytes; null if the bytes are not what the header says.
     *
     * @param cut {@code raw} is the start of a longer body: what its bytes decode to is kept, where its end would
     *     be an error
     */
    static byte @Nullable [] decode(byte[] raw, String encoding, int limit, boolean cut) {
        List<String> codings = codings(encoding);
        if (codings.isEmpty() || raw.length == 0) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, raw.length * 4));
        try (InputStream in = decoding(new ByteArrayInputStream(raw), codings)) {
            byte[] chunk = new byte[8_192];
            while (out.size() < limit) {
                int n = in.read(chunk, 0, Math.min(chunk.length, limit - out.size()));
                if (n < 0) {
                    break;
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } catch (IOException | RuntimeException e) { // the Brotli decoder may throw its own unchecked exception
            return cut && out.size() > 0 ? out.toByteArray() : null;
        }
    }

    /** {@code in} with {@code codings} undone, the last applied first. */
    private static InputStream decoding(InputStream in, List<String> codings) throws IOException {
        InputStream decoded = in;
        for (String coding : codings.reversed()) {
            decoded = switch (coding) {
                case "gzip", "x-gzip" -> new GZIPInputStream(decoded);
                case "deflate" -> inflating(decoded);
                // Buffered: the decoder's read(byte[]) after a read() of one byte (as GZIPInputStream reads its
                // header) answers -1 with bytes still in hand (google/brotli#1019, fixed after its last release).
                case "br" -> new BufferedInputStream(new BrotliInputStream(decoded));
                // A name no coding has ("none", which servers send, WireMock among them): passed through as
                // Chromium passes it, the body as it came
                default -> decoded;
            };
        }
        return decoded;
    }

    /** The codings of a {@code Content-Encoding} value, lower case, in the order applied; identity left out. */
    static List<String> codings(String encoding) {
        List<String> codings = new ArrayList<>(1);
        for (String coding : encoding.split(",")) {
            String name = coding.strip().toLowerCase(Locale.ROOT);
            if (!name.isEmpty() && !name.equals("identity")) {
                codings.add(name);
            }
        }
        return codings;
    }

    /** A deflate stream, raw or zlib-wrapped as its first two bytes say. */
    private static InputStream inflating(InputStream in) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in);
        buffered.mark(2);
        byte[] head = buffered.readNBytes(2);
        buffered.reset();
        return new InflaterInputStream(buffered, new Inflater(!looksLikeZlib(head)));
    }

    private static boolean looksLikeZlib(byte[] raw) {
        return raw.length >= 2 && (raw[0] & 0x0f) == 8 && ((raw[0] & 0xff) << 8 | raw[1] & 0xff) % 31 == 0;
    }
}
