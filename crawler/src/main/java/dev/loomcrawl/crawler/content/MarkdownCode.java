package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;

/**
 * A {@code pre}, or Doxygen's code ({@link #isLines}), as a fenced code block: its text exactly as written (no white
 * space folded, no mark escaped) less the line numbers a highlighter set beside it, fenced by more backticks than it
 * holds in a row, the fence naming its language when the page names it.
 */
final class MarkdownCode {
    /**
     * A class naming the code's language: {@code language-python} and {@code lang-js} (Prism, highlight.js, Hugo,
     * the CommonMark convention), Sphinx's {@code highlight-python3} and GitHub's {@code highlight-source-js}.
     */
    private static final Pattern LANGUAGE = Pattern.compile("(?:language|lang|highlight-source|highlight)-(.+)");
    /** A language's name as an info string may hold it (no backtick, no space). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_+#.-]{1,30}");
    /** Names that say the highlighter chose, or that there is no language: no info string. */
    private static final Set<String> NO_LANGUAGE = Set.of("default", "none", "plain", "plaintext", "nohighlight");
    /**
     * How far above the {@code pre} a wrapper may name the language (Jekyll's Rouge: two {@code div}s up), counted
     * again from a table cell the code is set in (Sphinx's {@code highlight-python3}, two {@code div}s above the
     * table of line numbers and code).
     */
    private static final int WRAPPERS = 2;
    /** The parts of a table a highlighter sets code in, beside its line numbers. */
    private static final Set<String> TABLE_PARTS = Set.of("td", "tr", "tbody", "table");
    /** Steps up from the {@code pre} at most, table parts and wrappers together. */
    private static final int STEPS_UP = 8;
    /**
     * Classes of the line numbers highlighters write before each line inside the code: Pygments' and Sphinx's
     * {@code linenos}, Hugo's (Chroma's) {@code ln} and {@code lnt}, Rouge's {@code gutter} and {@code lineno}.
     */
    private static final Set<String> LINE_NUMBER_CLASSES = Set.of("linenos", "lineno", "linenodiv", "ln", "lnt",
            "line-number", "line-numbers", "gutter");

    private MarkdownCode() {}

    /**
     * Whether {@code e} is Doxygen's code: a {@code div.fragment} of {@code div.line}s, one a line, which a reader
     * sees as a {@code pre} (its examples and its pages of source). Written as blocks, its lines lost their indents,
     * its braces (no letter: no paragraph) and its comments (a class word), and gained its links' tooltips.
     */
    static boolean isLines(Element e) {
        Element first = e.firstElementChild();
        return e.nameIs("div") && e.hasClass("fragment") && first != null && first.hasClass("line");
    }

    /** The code in Markdown, or as plain text; "" when it is blank. */
    static String fenced(Element pre, boolean markdown) {
        String code = (isLines(pre) ? lines(pre) : code(pre)).stripTrailing();
        while (code.startsWith("\n")) {
            code = code.substring(1);
        }
        if (code.isBlank() || !markdown) {
            return code;
        }
        String fence = MarkdownMarks.ticksAround(code, 3);
        return fence + language(pre) + "\n" + code + "\n" + fence;
    }

    /**
     * A table a highlighter lays code out in (Pygments, Hugo, Rouge, MkDocs with line numbers): a cell of
     * {@link #lineNumbers} beside a cell holding the code's {@code pre}. Written as a table it would be one row,
     * the code folded into one line.
     */
    static boolean numbersBesideCode(List<List<Element>> rows) {
        for (List<Element> row : rows) {
            for (Element cell : row) {
                if (gutter(cell)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A cell of {@link #lineNumbers} whose next cell holds the code's {@code pre}. */
    static boolean gutter(Element cell) {
        Element next = cell.nextElementSibling();
        return next != null && lineNumbers(cell) && next.selectFirst("pre") != null;
    }

    /**
     * Whether {@code e}'s text is line numbers: digits and white space alone. Read up to its first other character,
     * as every cell of every table is asked.
     */
    private static boolean lineNumbers(Element e) {
        boolean digit = false;
        for (Iterator<TextNode> texts = e.nodeStream(TextNode.class).iterator(); texts.hasNext(); ) {
            String text = texts.next().getWholeText();
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c >= '0' && c <= '9') {
                    digit = true;
                } else if (!Character.isWhitespace(c)) {
                    return false;
                }
            }
        }
        return digit;
    }

    /**
     * The code as a reader copies it: the text of {@code pre}, a {@code br} a line break, less the line numbers a
     * highlighter wrote inside it (a span before each line, or a cell of a table of numbers and code, Rouge's).
     */
    private static String code(Element pre) {
        StringBuilder code = new StringBuilder();
        NodeTraversor.filter(new NodeFilter() {
            @Override
            public FilterResult head(Node node, int depth) {
                if (node instanceof TextNode t) {
                    code.append(t.getWholeText());
                } else if (node instanceof Element e && e != pre) {
                    if (e.nameIs("br")) {
                        code.append('\n');
                    } else if (e.nameIs("td") ? gutter(e) : numbered(e) && lineNumbers(e)) {
                        return FilterResult.SKIP_ENTIRELY;
                    }
                }
                return FilterResult.CONTINUE;
            }
        }, pre);
        return code.toString();
    }

    /**
     * Doxygen's lines of code, less the tooltips of their links beside them ({@code div.ttc}, shown on hover), the
     * no-break space some versions set after a line's number, and the space that keeps an empty line's {@code div}
     * open.
     */
    private static String lines(Element fragment) {
        StringBuilder code = new StringBuilder();
        for (Element line : fragment.children()) {
            if (line.hasClass("line")) {
                String text = code(line);
                boolean numbered = text.startsWith("\u00a0") && line.selectFirst(".lineno") != null;
                text = numbered ? text.substring(1) : text;
                code.append(text.isBlank() ? "" : text).append('\n');
            }
        }
        return code.toString();
    }

    private static boolean numbered(Element e) {
        for (String name : e.classNames()) {
            if (LINE_NUMBER_CLASSES.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The code's language, as highlighters name it ({@link #LANGUAGE}) on the {@code pre}, its {@code code} or the
     * wrappers highlighters put around it, or in a {@code data-lang}, for the fence's info string; "" when none is
     * named.
     */
    private static String language(Element pre) {
        List<Element> named = new ArrayList<>(List.of(pre));
        Element code = pre.firstElementChild();
        if (code != null && code.nameIs("code")) {
            named.add(code);
        }
        Element up = pre.parent();
        for (int divs = 0, steps = 0; up != null && divs < WRAPPERS && steps < STEPS_UP; steps++, up = up.parent()) {
            if (TABLE_PARTS.contains(up.normalName())) {
                divs = 0;
            } else if (up.nameIs("div")) {
                named.add(up);
                divs++;
            } else {
                break;
            }
        }
        for (Element e : named) {
            String language = name(e.attr("data-lang"));
            for (String name : e.classNames()) {
                Matcher m = LANGUAGE.matcher(name);
                if (language.isEmpty() && m.matches()) {
                    language = name(m.group(1));
                }
            }
            if (!language.isEmpty()) {
                return language;
            }
        }
        return "";
    }

    /** {@code named} as a fence's info string, lower case; "" when it is no language's name. */
    private static String name(String named) {
        String name = named.toLowerCase(Locale.ROOT);
        return NAME.matcher(name).matches() && !NO_LANGUAGE.contains(name) ? name : "";
    }
}
