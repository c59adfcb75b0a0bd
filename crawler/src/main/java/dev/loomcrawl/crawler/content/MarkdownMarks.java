package dev.loomcrawl.crawler.content;

/**
 * Where Markdown's marks go around the words they mark (emphasis, a link's brackets, a code span's backticks): outside
 * the white space at the words' edges, and for emphasis outside the punctuation there too, where CommonMark reads
 * them as marks.
 */
final class MarkdownMarks {
    private MarkdownMarks() {}

    /**
     * {@code open + text + close}, with the text's outer white space kept outside the marks, as Markdown needs: a
     * space as a space, a line break ({@code <br>} at the edge of a link) as a line break.
     *
     * @param white whether the end of {@code sb} follows white space already (a space before the text would be
     *     a second)
     */
    static void wrap(String text, String open, String close, boolean white, StringBuilder sb) {
        int start = MarkdownText.wordsStart(text);
        int end = MarkdownText.wordsEnd(text, start);
        if (start == end) {
            sb.append(text);
            return;
        }
        around(text, start, start, end, end, open, close, white, sb);
    }

    /**
     * {@code text} between emphasis marks as {@link #wrap} puts it, but for the punctuation at either end of its
     * words, written outside the marks: CommonMark reads a mark between a letter and punctuation as neither opening
     * nor closing ({@code word**, more**}, {@code **33%**of} show their asterisks), and a mark between a letter and
     * a letter always. Punctuation alone is written without marks.
     *
     * @param goesOn whether the text goes on inside the marks just before it, whose close the caller took off
     * @return whether what was written ends with the closing mark
     */
    static boolean emphasis(String text, String mark, boolean white, boolean goesOn, StringBuilder sb) {
        int start = MarkdownText.wordsStart(text);
        int end = MarkdownText.wordsEnd(text, start);
        int from = goesOn ? start : start + punctuationAtStart(text, start, end);
        int to = end - punctuationAtEnd(text, from, end, opened(text, start, from));
        if (to <= from && !goesOn) {
            wrap(text, "", "", white, sb);
            return false;
        }
        around(text, start, from, to, end, goesOn ? "" : mark, mark, white, sb);
        return to == text.length();
    }

    /**
     * {@code text} written with {@code open} before {@code text[from, to)} and {@code close} after it; its words are
     * {@code text[start, end)}, the white space outside them one character each side.
     */
    private static void around(String text, int start, int from, int to, int end, String open, String close,
            boolean white, StringBuilder sb) {
        if (start > 0 && !white) {
            sb.append(gap(text, 0, start));
        }
        sb.append(text, start, from).append(open).append(text, from, to).append(close).append(text, to, end);
        if (end < text.length()) {
            sb.append(gap(text, end, text.length()));
        }
    }

    /** White space as one character: a line break if it holds one. */
    private static char gap(String text, int from, int to) {
        return text.substring(from, to).indexOf('\n') >= 0 ? '\n' : ' ';
    }

    /**
     * The text's punctuation (and spaces between) at the start of {@code text[from, to)}, up to a mark of ours or an
     * escape.
     */
    private static int punctuationAtStart(String text, int from, int to) {
        int i = from;
        while (i < to) {
            int c = text.codePointAt(i);
            if (c == '*' || c == '~' || c == '[' || c == '`' || c == '\\'
                    || !punctuation(c) && !Character.isWhitespace(c)) {
                break;
            }
            i += Character.charCount(c);
        }
        return i - from;
    }

    /**
     * The text's punctuation (and spaces between) at the end of {@code text[from, to)}, back to a mark of ours, the
     * end of a link ({@code ]}, or a {@code )} unless it closes one of the {@code parens} put outside at the start:
     * {@code (**see above**)}) or an escaped character.
     */
    private static int punctuationAtEnd(String text, int from, int to, int parens) {
        int j = to;
        while (j > from) {
            int c = text.codePointBefore(j);
            int before = j - Character.charCount(c);
            if (c == '*' || c == '~' || c == '`' || c == ']' || c == ')' && parens-- == 0
                    || !punctuation(c) && !Character.isWhitespace(c) || before > 0 && text.charAt(before - 1) == '\\') {
                break;
            }
            j = before;
        }
        return to - j;
    }

    /** The parentheses opened in {@code text[from, to)}. */
    private static int opened(String text, int from, int to) {
        int parens = 0;
        for (int i = from; i < to; i++) {
            parens += text.charAt(i) == '(' ? 1 : 0;
        }
        return parens;
    }

    /** CommonMark's punctuation: Unicode's punctuation and symbols. */
    private static boolean punctuation(int c) {
        return switch (Character.getType(c)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION, Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL,
                    Character.MATH_SYMBOL, Character.OTHER_SYMBOL -> true;
            default -> false;
        };
    }

    /**
     * The backticks that open and close {@code code} (a code span, or a fenced block's fence): at least {@code
     * least}, and more than any run of backticks in the code, which would otherwise end it early.
     */
    static String ticksAround(String code, int least) {
        int longest = 0;
        for (int i = 0, run = 0; i < code.length(); i++) {
            run = code.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        return "`".repeat(Math.max(least, longest + 1));
    }
}
