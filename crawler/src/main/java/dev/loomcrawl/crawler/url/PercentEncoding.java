package dev.loomcrawl.crawler.url;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** The URL Standard's percent-encode sets and its percent-decoding, over UTF-8. */
enum PercentEncoding {
    FRAGMENT(" \"<>`"),
    SPECIAL_QUERY(" \"#<>'"),
    PATH(" \"#<>?^`{}"),
    USERINFO(" \"#<>?^`{}/:;=@[\\]|");

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /** Which ASCII characters this set encodes, beside the C0 controls and DEL. */
    private final boolean[] ascii = new boolean[128];

    PercentEncoding(String extra) {
        for (int c = 0; c < 0x20; c++) {
            ascii[c] = true;
        }
        ascii[0x7f] = true;
        for (char c : extra.toCharArray()) {
            ascii[c] = true;
        }
    }

    /**
     * Appends {@code s[from, to)} to {@code out}, each code point in this set as the percent-escapes of its
     * UTF-8 bytes; a lone surrogate is U+FFFD, as a browser's string conversion makes it.
     */
    void append(StringBuilder out, String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (ascii[c]) {
                    escape(out, c);
                } else {
                    out.append(c);
                }
                continue;
            }
            int cp = c;
            if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                cp = Character.toCodePoint(c, s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                cp = 0xFFFD;
            }
            utf8(out, cp);
        }
    }

    /** Whether {@code c} (ASCII) is left as it is. */
    boolean keeps(char c) {
        return c < 0x80 && !ascii[c];
    }

    private static void utf8(StringBuilder out, int cp) {
        if (cp < 0x800) {
            escape(out, 0xC0 | cp >> 6);
            escape(out, 0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            escape(out, 0xE0 | cp >> 12);
            escape(out, 0x80 | cp >> 6 & 0x3F);
            escape(out, 0x80 | cp & 0x3F);
        } else {
            escape(out, 0xF0 | cp >> 18);
            escape(out, 0x80 | cp >> 12 & 0x3F);
            escape(out, 0x80 | cp >> 6 & 0x3F);
            escape(out, 0x80 | cp & 0x3F);
        }
    }

    private static void escape(StringBuilder out, int b) {
        out.append('%').append(HEX[b >> 4 & 0xF]).append(HEX[b & 0xF]);
    }

    /**
     * {@code s} percent-decoded and read as UTF-8 (malformed bytes become U+FFFD); a {@code %} not followed by
     * two hex digits stays as it is.
     */
    static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            int hi = i + 2 < utf8.length && utf8[i] == '%' ? Character.digit(utf8[i + 1], 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(utf8[i + 2], 16);
            if (lo < 0) {
                bytes.write(utf8[i]);
            } else {
                bytes.write(hi << 4 | lo);
                i += 2;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
