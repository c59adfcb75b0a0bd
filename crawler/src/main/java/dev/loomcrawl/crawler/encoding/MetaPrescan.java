package dev.loomcrawl.crawler.encoding;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The HTML Standard's "prescan a byte stream to determine its encoding": the encoding a page's
 * {@code <meta charset>} or {@code <meta http-equiv=content-type content="...; charset=...">} declares, read
 * from its bytes before they are text, skipping comments and the attributes of other tags as a browser does;
 * failing a {@code <meta>}, its XML declaration's. Step for step, with the standard's names; held to
 * html5lib's encoding tests by {@code MetaPrescanTest}.
 */
final class MetaPrescan {
    /** How far to look: the standard encourages browsers to prescan the first 1,024 bytes. */
    static final int LIMIT = 1024;

    private final byte[] b;
    private final int end;
    private int pos;

    private MetaPrescan(byte[] bytes) {
        this.b = bytes;
        this.end = Math.min(bytes.length, LIMIT);
    }

    /** The standard's name of the encoding the first 1,024 bytes declare, or null when they declare none. */
    static @Nullable String declared(byte[] bytes) {
        return new MetaPrescan(bytes).scan();
    }

    private @Nullable String scan() {
        if (startsWith(0x3C, 0, 0x3F, 0, 0x78, 0)) { // "<?x" in UTF-16LE
            return "UTF-16LE";
        }
        if (startsWith(0, 0x3C, 0, 0x3F, 0, 0x78)) {
            return "UTF-16BE";
        }
        for (; pos < end; pos++) {
            if (b[pos] != '<') {
                continue;
            }
            if (at(pos + 1) == '!' && at(pos + 2) == '-' && at(pos + 3) == '-') {
                // a comment ends at the first "-->", whose dashes may be the opening's: "<!-->" is a whole one
                pos += 2;
                while (pos < end && !(b[pos] == '>' && b[pos - 1] == '-' && b[pos - 2] == '-')) {
                    pos++;
                }
            } else if (isMetaStart()) {
                pos += 6; // past "<meta" and the space or slash after it
                String found = meta();
                if (found != null) {
                    return found;
                }
            } else if (isLetter(at(pos + 1)) || (at(pos + 1) == '/' && isLetter(at(pos + 2)))) {
                while (pos < end && !isSpace(b[pos]) && b[pos] != '>') {
                    pos++; // the tag's name
                }
                while (attribute() != null) {
                    // another tag's attributes are skipped, so a quoted "<meta" inside one is no meta
                }
            } else if (at(pos + 1) == '!' || at(pos + 1) == '/' || at(pos + 1) == '?') {
                while (pos < end && b[pos] != '>') {
                    pos++;
                }
            }
        }
        return xmlEncoding();
    }

    private boolean isMetaStart() {
        return (at(pos + 1) | 0x20) == 'm' && (at(pos + 2) | 0x20) == 'e' && (at(pos + 3) | 0x20) == 't'
                && (at(pos + 4) | 0x20) == 'a' && (isSpace(at(pos + 5)) || at(pos + 5) == '/');
    }

    /** A {@code <meta>}'s attributes, read to its end: the encoding it declares, or null (the scan goes on). */
    private @Nullable String meta() {
        Set<String> names = new HashSet<>();
        boolean gotPragma = false;
        Boolean needPragma = null;
        String charset = null;
        for (String[] attr = attribute(); attr != null; attr = attribute()) {
            String name = attr[0];
            String value = attr[1];
            if (!names.add(name)) {
                continue; // only an attribute's first appearance counts
            }
            switch (name) {
                case "http-equiv" -> gotPragma |= value.equals("content-type");
                case "content" -> {
                    String fromContent = charset == null ? fromContentAttribute(value) : null;
                    if (fromContent != null) {
                        charset = fromContent;
                        needPragma = true;
                    }
                }
                case "charset" -> {
                    charset = Encodings.name(value);
                    needPragma = false;
                }
                default -> { }
            }
        }
        if (pos >= end || needPragma == null || (needPragma && !gotPragma) || charset == null) {
            return null;
        }
        return asMetaMeansIt(charset);
    }

    /**
     * The encoding a {@code <meta>} naming this one means: a page whose markup is read for it has no BOM and
     * ASCII bytes, so is not UTF-16 (the meta is wrong, and the page is UTF-8), and x-user-defined is read as
     * windows-1252. The standard says so of the prescan and of the parser's "change the encoding" alike.
     */
    static String asMetaMeansIt(String name) {
        return switch (name) {
            case "UTF-16BE", "UTF-16LE" -> "UTF-8";
            case "x-user-defined" -> "windows-1252";
            default -> name;
        };
    }

    /**
     * The standard's "get an attribute": {name, value}, both lower-cased, or null at the tag's end (its
     * {@code >} or the end of the bytes).
     */
    private String @Nullable [] attribute() {
        while (pos < end && (isSpace(b[pos]) || b[pos] == '/')) {
            pos++;
        }
        if (pos >= end || b[pos] == '>') {
            return null;
        }
        StringBuilder name = new StringBuilder();
        StringBuilder value = new StringBuilder();
        // the name, to '=' (not its first byte), a space, '/' or '>'
        for (;; pos++) {
            if (pos >= end) {
                return null;
            }
            int c = b[pos] & 0xFF;
            if (c == '=' && !name.isEmpty()) {
                pos++;
                break;
            }
            if (isSpace(c)) {
                skipSpaces();
                if (at(pos) != '=') {
                    return new String[] {name.toString(), ""}; // a name alone; the next attribute starts here
                }
                pos++;
                break;
            }
            if (c == '/' || c == '>') {
                return new String[] {name.toString(), ""};
            }
            name.append(lower(c));
        }
        skipSpaces();
        if (pos >= end) {
            return null;
        }
        int c = b[pos] & 0xFF;
        if (c == '"' || c == '\'') {
            for (pos++; pos < end; pos++) {
                if ((b[pos] & 0xFF) == c) {
                    pos++;
                    return new String[] {name.toString(), value.toString()};
                }
                value.append(lower(b[pos] & 0xFF));
            }
            return null;
        }
        if (c == '>') {
            return new String[] {name.toString(), ""};
        }
        for (; pos < end; pos++) {
            c = b[pos] & 0xFF;
            if (isSpace(c) || c == '>') {
                return new String[] {name.toString(), value.toString()};
            }
            value.append(lower(c));
        }
        return null;
    }

    /**
     * The standard's "extracting a character encoding from a meta element": the encoding after
     * {@code charset=} in a {@code content} attribute's value, or null.
     */
    static @Nullable String fromContentAttribute(String content) {
        String s = content.toLowerCase(Locale.ROOT);
        int at = 0;
        while (true) {
            int found = s.indexOf("charset", at);
            if (found < 0) {
                return null;
            }
            int p = skipSpaces(s, found + "charset".length());
            if (p < s.length() && s.charAt(p) == '=') {
                at = skipSpaces(s, p + 1);
                break;
            }
            at = p; // "charset" not followed by '=': look again from here
        }
        if (at >= s.length()) {
            return null;
        }
        char first = s.charAt(at);
        if (first == '"' || first == '\'') {
            int close = s.indexOf(first, at + 1);
            return close < 0 ? null : Encodings.name(content.substring(at + 1, close));
        }
        int stop = at;
        while (stop < s.length() && !isSpace(s.charAt(stop)) && s.charAt(stop) != ';') {
            stop++;
        }
        return Encodings.name(content.substring(at, stop));
    }

    /** The standard's "get an XML encoding": the encoding an opening {@code <?xml ... encoding="..."?>} names. */
    private @Nullable String xmlEncoding() {
        if (!startsWith('<', '?', 'x', 'm', 'l')) {
            return null;
        }
        int close = indexOf('>', 5);
        String decl = new String(b, 0, close < 0 ? end : close, StandardCharsets.ISO_8859_1);
        int at = decl.indexOf("encoding");
        if (close < 0 || at < 0) {
            return null;
        }
        int p = skipControls(decl, at + "encoding".length());
        if (p >= decl.length() || decl.charAt(p) != '=') {
            return null;
        }
        p = skipControls(decl, p + 1);
        if (p >= decl.length() || (decl.charAt(p) != '"' && decl.charAt(p) != '\'')) {
            return null;
        }
        int q = decl.indexOf(decl.charAt(p), p + 1);
        if (q < 0 || decl.substring(p + 1, q).chars().anyMatch(c -> c <= 0x20)) {
            return null;
        }
        String name = Encodings.name(decl.substring(p + 1, q));
        return name != null && name.startsWith("UTF-16") ? "UTF-8" : name;
    }

    private int indexOf(int c, int from) {
        for (int i = from; i < end; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private boolean startsWith(int... bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (at(i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** The byte at {@code i}, or -1 past the bytes scanned. */
    private int at(int i) {
        return i < end ? b[i] & 0xFF : -1;
    }

    private void skipSpaces() {
        while (pos < end && isSpace(b[pos])) {
            pos++;
        }
    }

    private static int skipSpaces(String s, int from) {
        int p = from;
        while (p < s.length() && isSpace(s.charAt(p))) {
            p++;
        }
        return p;
    }

    /** Past spaces and control characters, as "get an XML encoding" skips them. */
    private static int skipControls(String s, int from) {
        int p = from;
        while (p < s.length() && s.charAt(p) <= 0x20) {
            p++;
        }
        return p;
    }

    private static boolean isSpace(int c) {
        return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
    }

    private static boolean isLetter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static char lower(int c) {
        return (char) (c >= 'A' && c <= 'Z' ? c + 0x20 : c);
    }
}
