package dev.loomcrawl.crawler.content;

import java.nio.charset.StandardCharsets;

/**
 * Text as Markdown (or plain text) writes it: runs of white space one space, Markdown's marks escaped, a
 * paragraph that would start like a block escaped, control characters (a binary body served as HTML, a stray
 * byte) and soft hyphens left out. Most text needs none of this, which one look at its bytes tells
 * ({@link #asWritten}): it is then appended as it is, a copy. Else one loop over a char array, the cases in one
 * switch: a crawl runs on C1 alone (conf/jvm.options), which compiles a call per character, or a {@code charAt},
 * as a call.
 */
final class MarkdownText {
    /** CommonMark's hard line break, a {@code <br>}: a backslash at the end of the line. */
    static final String HARD_BREAK = "\\\n";

    private final boolean markdown;
    /** A text node's characters, and what is written of them: reused from node to node. */
    private char[] in = new char[256];
    private char[] out = new char[512];

    /** @param markdown whether Markdown's marks are escaped (plain text keeps them) */
    MarkdownText(boolean markdown) {
        this.markdown = markdown;
    }

    /**
     * Appends {@code s} as a reader sees it, after white space when {@code white}; returns its characters that
     * are not spaces.
     */
    int append(String s, boolean white, StringBuilder sb) {
        int chars = asWritten(s, white);
        if (chars >= 0) {
            sb.append(s);
            return chars;
        }
        return rewritten(s, white, sb);
    }

    /**
     * The characters of {@code s} that are not spaces, when it is written as it is (no white space but single
     * spaces, none after white space, no mark to escape); else -1. Read as ISO 8859-1 bytes: a copy for the
     * Latin-1 text most pages are, and a character outside it, read as {@code ?}, is never white or a mark.
     */
    private int asWritten(String s, boolean white) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        int spaces = 0;
        for (byte b : bytes) {
            switch (b) {
                case ' ' -> {
                    if (white) {
                        return -1;
                    }
                    white = true;
                    spaces++;
                }
                case '\n', '\t', '\r', '\f', (byte) 0xA0, (byte) 0xAD -> {
                    return -1;
                }
                case '\\', '*', '_', '`', '[', ']', '<', '~', '&' -> {
                    if (markdown) {
                        return -1; // '&' may start a character reference: the rewrite looks ({@link #entityAt})
                    }
                    white = false;
                }
                default -> {
                    if (Character.isISOControl((char) (b & 0xFF))) { // C0, DEL, C1: no reader wants one
                        return -1;
                    }
                    white = false;
                }
            }
        }
        return bytes.length - spaces;
    }

    private int rewritten(String s, boolean white, StringBuilder sb) {
        int length = s.length();
        if (in.length < length) {
            in = new char[Math.max(length, 2 * in.length)];
            out = new char[2 * in.length];
        }
        s.getChars(0, length, in, 0);
        int n = 0;
        int chars = 0;
        for (int i = 0; i < length; i++) {
            char c = in[i];
            switch (c) {
                case ' ', '\n', '\t', '\r', '\f', '\u00A0' -> {
                    if (!white) {
                        out[n++] = ' ';
                        white = true;
                    }
                }
                case '\\', '*', '_', '`', '[', ']', '<', '~' -> {
                    if (markdown) {
                        out[n++] = '\\';
                    }
                    out[n++] = c;
                    white = false;
                    chars++;
                }
                case '\u00AD' -> {
                    // a soft hyphen: where a word may break, shown only there; in the text it would split the word
                }
                case '&' -> {
                    if (markdown && entityAt(s, i)) {
                        out[n++] = '\\';
                    }
                    out[n++] = c;
                    white = false;
                    chars++;
                }
                default -> {
                    if (!Character.isISOControl(c)) {
                        out[n++] = c;
                        white = false;
                        chars++;
                    }
                }
            }
        }
        sb.append(out, 0, n);
        return chars;
    }

    /**
     * Whether an {@code &} at {@code i} starts what CommonMark reads as a character reference ({@code &percnt;},
     * {@code &#160;}, {@code &#xA0;}): a page's text "&amp;nbsp;" shows "&nbsp;", which Markdown must not turn into a
     * space.
     */
    static boolean entityAt(String s, int i) {
        int j = i + 1;
        boolean numeric = j < s.length() && s.charAt(j) == '#';
        boolean hex = numeric && j + 1 < s.length() && (s.charAt(j + 1) == 'x' || s.charAt(j + 1) == 'X');
        j += hex ? 2 : numeric ? 1 : 0;
        int start = j;
        while (j < s.length() && j - start < 32 && (hex ? Character.digit(s.charAt(j), 16) >= 0
                : numeric ? s.charAt(j) >= '0' && s.charAt(j) <= '9'
                : s.charAt(j) < 128 && Character.isLetterOrDigit(s.charAt(j)))) {
            j++;
        }
        return j > start && j < s.length() && s.charAt(j) == ';';
    }

    static String indent(String text, String pad) {
        return pad.isEmpty() ? text : text.replace("\n", "\n" + pad);
    }

    /** The run's text without white space at its ends, copied once (a page's text may be most of the page). */
    static String stripped(StringBuilder run) {
        int start = wordsStart(run);
        return run.substring(start, wordsEnd(run, start));
    }

    /** Where the text's words start: past its white space. */
    static int wordsStart(CharSequence text) {
        int start = 0;
        while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        return start;
    }

    /** Where the text's words end, the white space after them left out; at least {@code start}. */
    static int wordsEnd(CharSequence text, int start) {
        int end = text.length();
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /** Each line stripped, blank lines gone. */
    static String lines(String s) {
        if (s.indexOf('\n') < 0) {
            return s.strip(); // most paragraphs: one line
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (String line : s.split("\n")) {
            String l = line.strip();
            if (!l.isEmpty()) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(l);
            }
        }
        return sb.toString();
    }

    /**
     * A paragraph's lines ({@code <br>}) as Markdown's hard line breaks, each line escaped as a paragraph's first is:
     * a line "1. Dorothea Wierer" under another starts a list in CommonMark, and a plain line break is a space.
     */
    static String hardLines(String p) {
        if (p.indexOf('\n') < 0) {
            return escapeStart(p);
        }
        StringBuilder sb = new StringBuilder(p.length() + 16);
        for (String line : p.split("\n")) {
            sb.append(sb.isEmpty() ? "" : HARD_BREAK).append(escapeStart(line));
        }
        return sb.toString();
    }

    /** A paragraph that starts like a heading, a quote, a list item or a rule is escaped, to stay a paragraph. */
    static String escapeStart(String p) {
        char c = p.charAt(0);
        if (c == '#' || c == '>' || c == '-' || c == '+' || c == '=' || c == '|') {
            return "\\" + p;
        }
        int digits = 0;
        while (digits < p.length() && Character.isDigit(p.charAt(digits))) {
            digits++;
        }
        if (digits > 0 && digits < p.length() && (p.charAt(digits) == '.' || p.charAt(digits) == ')')) {
            return p.substring(0, digits) + "\\" + p.substring(digits);
        }
        return p;
    }
}
