package dev.loomcrawl.crawler.encoding;

import com.ibm.icu.text.CharsetDetector;
import com.ibm.icu.text.CharsetMatch;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How a page's bytes become text, in the order a browser decides (the HTML Standard's "determining the
 * character encoding"): a byte-order mark; else the charset {@code Content-Type} names; else, for HTML, what
 * the first 1,024 bytes declare ({@link MetaPrescan}); each label read by the Encoding Standard
 * ({@link Encodings}). Where a page declares nothing the standard leaves the guess to the browser, and ours
 * is a crawler's: UTF-8 when the bytes are UTF-8 (most of today's web), else ICU's statistical detector
 * among the legacy encodings (a Latin-1 page, a Shift_JIS one), else windows-1252, the standard's default
 * for most of the world.
 */
public final class PageEncoding {
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    /** What ICU's detector reads of a page: enough text for its statistics, a bound on its work. */
    private static final int DETECT_BYTES = 64 * 1024;
    /**
     * ICU's confidence (0 to 100) below which its guess is noise: on a line or two of text every encoding
     * scores 10 to 18, Shift_JIS and Big5 for a Polish word alike.
     */
    private static final int LEAST_CONFIDENCE = 20;

    /**
     * @param charset decodes the page
     * @param bomLength the byte-order mark's bytes at the start, which are not text
     * @param from what decided it
     */
    public record Sniffed(Charset charset, int bomLength, From from) {
        /** The page's text, without its byte-order mark. */
        public String decode(byte[] body) {
            return new String(body, bomLength, body.length - bomLength, charset);
        }

        /**
         * Whether a {@code <meta>} the parser meets later may still change the encoding, as the standard's
         * "tentative" confidence lets it: nothing declared one and the bytes are not UTF-8, so the first
         * {@code <meta>} that declares one decides and the page is decoded again ({@link #declaredByMeta}).
         * Well-formed UTF-8 is taken as certain: a page that is not ASCII and yet well-formed UTF-8 is all but
         * never in another encoding, and an ASCII page reads the same in any encoding a {@code <meta>} names.
         */
        public boolean tentative() {
            return from == From.DETECTED || from == From.DEFAULT;
        }
    }

    /** What decided a page's encoding, in the order tried; {@code LATE_META} a {@code <meta>} past the prescan. */
    public enum From { BOM, HEADER, META, LATE_META, UTF8, DETECTED, DEFAULT }

    private PageEncoding() {}

    /**
     * A body's text as its {@code Content-Type} says it is encoded; an HTML body's {@code <meta>} may say so
     * too ({@code text/html}: XHTML is XML, which declares its encoding otherwise).
     */
    public static String decode(byte[] body, @Nullable String contentType) {
        String type = contentType == null ? "" : contentType.strip().toLowerCase(Locale.ROOT);
        return sniff(body, charsetParameter(contentType), type.startsWith("text/html")).decode(body);
    }

    /**
     * The encoding of a page's bytes.
     *
     * @param headerCharset the {@code charset} of its {@code Content-Type} ({@link #charsetParameter}), if any
     * @param html whether it is HTML, whose {@code <meta>} may declare its encoding
     */
    public static Sniffed sniff(byte[] body, @Nullable String headerCharset, boolean html) {
        if (startsWith(body, 0xEF, 0xBB, 0xBF)) {
            return new Sniffed(StandardCharsets.UTF_8, 3, From.BOM);
        }
        if (startsWith(body, 0xFE, 0xFF)) {
            return new Sniffed(StandardCharsets.UTF_16BE, 2, From.BOM);
        }
        if (startsWith(body, 0xFF, 0xFE)) {
            return new Sniffed(StandardCharsets.UTF_16LE, 2, From.BOM);
        }
        Charset declared = headerCharset == null ? null : Encodings.forLabel(headerCharset);
        if (declared != null) {
            return new Sniffed(declared, 0, From.HEADER);
        }
        String inMeta = html ? MetaPrescan.declared(body) : null;
        declared = inMeta == null ? null : Encodings.charset(inMeta);
        if (declared != null) {
            return new Sniffed(declared, 0, From.META);
        }
        if (isUtf8(body)) {
            return new Sniffed(StandardCharsets.UTF_8, 0, From.UTF8);
        }
        Charset detected = detected(body);
        return detected != null ? new Sniffed(detected, 0, From.DETECTED) : new Sniffed(WINDOWS_1252, 0, From.DEFAULT);
    }

    /**
     * The encoding a {@code <meta>} element declares, as the HTML parser reads one ("change the encoding"): its
     * {@code charset}, else the {@code charset=} in its {@code content} when its {@code http-equiv} is
     * {@code Content-Type}, read as a meta means it ({@link MetaPrescan#asMetaMeansIt}). Null when it declares
     * none the JDK decodes.
     */
    public static @Nullable Charset declaredByMeta(String charset, String httpEquiv, String content) {
        String name = charset.isEmpty() ? null : Encodings.name(charset);
        if (name == null && httpEquiv.equalsIgnoreCase("content-type")) {
            name = MetaPrescan.fromContentAttribute(content);
        }
        return name == null ? null : Encodings.charset(MetaPrescan.asMetaMeansIt(name));
    }

    /** The {@code charset} parameter of a {@code Content-Type}, unquoted, if it has one. */
    public static @Nullable String charsetParameter(@Nullable String contentType) {
        for (String part : (contentType == null ? "" : contentType).split(";")) {
            String p = part.strip();
            if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                String name = p.substring(8).strip().replace("\"", "").replace("'", "");
                return name.isEmpty() ? null : name;
            }
        }
        return null;
    }

    /** Whether the bytes are well-formed UTF-8 (ASCII is), read in chunks so a long page costs no copy. */
    static boolean isUtf8(byte[] body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(4096);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                return false;
            }
            if (r.isUnderflow()) {
                return decoder.flush(out.clear()).isUnderflow();
            }
            out.clear();
        }
    }

    /**
     * ICU's best guess among the encodings a page without a BOM could be in, or null when it has none worth
     * taking: a guess of UTF-16 or UTF-32 is none for a page whose markup is ASCII, and a tie goes to
     * windows-1252 (a short Latin text ties ISO-8859-1 with ISO-8859-2, where {@code ñ} is {@code ń}).
     */
    private static @Nullable Charset detected(byte[] body) {
        CharsetDetector detector = new CharsetDetector();
        detector.enableInputFilter(true); // statistics of the text, not of the markup around it
        detector.setText(body.length > DETECT_BYTES ? Arrays.copyOf(body, DETECT_BYTES) : body);
        CharsetMatch[] matches = detector.detectAll();
        Charset first = null;
        for (CharsetMatch match : matches) {
            if (match.getConfidence() < LEAST_CONFIDENCE) {
                break; // sorted, most confident first
            }
            String name = Encodings.name(match.getName());
            Charset charset = name == null || name.startsWith("UTF-16") ? null : Encodings.charset(name);
            if (WINDOWS_1252.equals(charset) && match.getConfidence() == matches[0].getConfidence()) {
                return charset;
            }
            first = first == null ? charset : first;
        }
        return first;
    }

    private static boolean startsWith(byte[] b, int... prefix) {
        if (b.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((b[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
