package dev.loomcrawl.crawler.encoding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The WHATWG Encoding Standard's labels: which encoding a page means by {@code charset=latin1}, and the JDK's
 * charset that decodes as that encoding does.
 *
 * <p>The labels are the standard's own table ({@code encodings.json}, vendored beside this class). They differ
 * from the JDK's aliases where the web does: {@code iso-8859-1}, {@code latin1} and {@code us-ascii} mean
 * windows-1252 (a page so labelled writes {@code 0x92} for ’, which ISO-8859-1 reads as an invisible control
 * character), {@code gb2312} means GBK, {@code euc-kr} and {@code ks_c_5601-1987} windows-949,
 * {@code shift_jis} Windows-31J, {@code iso-8859-8-i} ISO-8859-8; and labels the JDK does not know at all
 * ({@code unicode-1-1-utf-8}, {@code x-cp1252}) are read as browsers read them.
 */
public final class Encodings {
    private static final Map<String, String> NAME_OF_LABEL = labels();

    /**
     * The JDK's charset for each of the standard's encodings the JDK can decode. The JDK has no ISO-8859-10
     * or ISO-8859-14, and the standard's {@code replacement} and {@code x-user-defined} are not charsets:
     * those are treated as no encoding found.
     */
    private static final Map<String, String> JDK_NAME = Map.ofEntries(
            Map.entry("macintosh", "x-MacRoman"),
            Map.entry("windows-874", "x-windows-874"),
            Map.entry("x-mac-cyrillic", "x-MacCyrillic"),
            Map.entry("GBK", "GB18030"), // the standard decodes GBK with gb18030's decoder
            Map.entry("Big5", "Big5-HKSCS"), // the standard's Big5 index holds the HKSCS extensions
            Map.entry("Shift_JIS", "windows-31j"), // and its Shift_JIS index the NEC and IBM extensions
            Map.entry("EUC-KR", "x-windows-949"), // and its EUC-KR index is windows-949's
            Map.entry("ISO-8859-8-I", "ISO-8859-8")); // the same bytes; only the display order differs

    private Encodings() {}

    /**
     * The standard's name of the encoding a label names ("get an encoding": ASCII whitespace around it
     * ignored, any case), or null when the label names none.
     */
    public static @Nullable String name(String label) {
        return NAME_OF_LABEL.get(label.strip().toLowerCase(Locale.ROOT));
    }

    /** The JDK charset that decodes as the standard's encoding of this name, or null where the JDK has none. */
    public static @Nullable Charset charset(String name) {
        if (name.equals("replacement") || name.equals("x-user-defined")) {
            return null;
        }
        String jdk = JDK_NAME.getOrDefault(name, name);
        return Charset.isSupported(jdk) ? Charset.forName(jdk) : null;
    }

    /** The charset a label names, or null when it names none the JDK decodes ({@link #name}, {@link #charset}). */
    public static @Nullable Charset forLabel(String label) {
        String name = name(label);
        return name == null ? null : charset(name);
    }

    private static Map<String, String> labels() {
        try (InputStream in = Encodings.class.getResourceAsStream("encodings.json")) {
            if (in == null) {
                throw new IllegalStateException("encodings.json is missing beside Encodings");
            }
            Map<String, String> names = new HashMap<>();
            for (JsonNode group : new ObjectMapper().readTree(in)) {
                for (JsonNode encoding : group.get("encodings")) {
                    for (JsonNode label : encoding.get("labels")) {
                        names.put(label.asText(), encoding.get("name").asText());
                    }
                }
            }
            return Map.copyOf(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
