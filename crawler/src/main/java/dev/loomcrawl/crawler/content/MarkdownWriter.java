package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.url.WebUrl;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * Writes the blocks {@link ContentScores} chose as Markdown (CommonMark, with GitHub's tables and
 * strike-through) or as plain text. Both come from one walk, so they hold the same words: text is Markdown
 * without its marks and link targets. Written from Jsoup's tree directly, as the page was parsed: an HTML to
 * Markdown library would want the HTML written out and parsed again.
 *
 * <p>On the way it leaves out what {@link Boilerplate} names, images, and lists or boxes of links (more
 * than half their text in links, fewer than ten commas: "related", tag clouds, pagination), as Readability's
 * cleaning does; and, as trafilatura does, short paragraphs, items and headings that are all link ("Post
 * reply", a user name, a "Next" link), paragraphs that are a number alone (votes, counts), and headings left
 * with nothing under them. A page header is left out, but not the article's {@code h1} in it.
 */
final class MarkdownWriter {
    private static final Set<String> INLINE = Set.of("a", "abbr", "b", "bdi", "bdo", "big", "br", "cite", "code",
            "data", "del", "dfn", "em", "font", "i", "img", "ins", "kbd", "mark", "picture", "q", "s", "samp", "small",
            "source", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr");
    private static final Set<String> LINK_BOXES = Set.of("ul", "ol", "dl", "div", "section", "table");

    /** A paragraph this short whose text is nearly all link text is navigation, not prose. */
    private static final int SHORT = 120;

    private final boolean markdown;
    private final boolean strict;
    /** Text characters of the paragraph being written, and how many of them are inside links. */
    private int textChars;
    private int linkChars;
    private int inLink;
    /** The base URL links resolve against, parsed once: {@code <base href>} or the page's URL. */
    private String baseUri = "";
    private WebUrl base;
    /** Blocks that are headings, by identity, and their level: a heading with nothing under it is dropped. */
    private final java.util.IdentityHashMap<String, Integer> headings = new java.util.IdentityHashMap<>();
    private boolean wroteH1;
    /** Whether a {@code <br>} wrote a line break since the last paragraph: the only way one gets into a paragraph. */
    private boolean lineBreaks;
    /** A text node's characters, and what is written of them: reused from node to node. */
    private char[] in = new char[256];
    private char[] out = new char[512];

    /** @param strict leave out blocks by their class and id words too (see {@link Boilerplate}) */
    MarkdownWriter(boolean markdown, boolean strict) {
        this.markdown = markdown;
        this.strict = strict;
    }

    /** The blocks, in order, a blank line between blocks; "" when nothing in them is text. */
    String write(List<Element> roots) {
        List<String> blocks = new ArrayList<>();
        for (Element root : roots) {
            block(root, blocks);
        }
        List<String> kept = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            Integer level = headings.get(blocks.get(i));
            Integer next = i + 1 < blocks.size() ? headings.get(blocks.get(i + 1)) : Integer.valueOf(0);
            if (level == null || next == null || next > level) {
                kept.add(blocks.get(i)); // a heading followed by text, or by a heading under it
            }
        }
        return kept.size() == 1 ? kept.get(0) : String.join("\n\n", kept); // one block: no copy of it
    }

    /** Whether the blocks written held an {@code h1}. */
    boolean wroteH1() {
        return wroteH1;
    }

    /** A heading as its own block, for a title that stands outside the chosen blocks. */
    String heading(Element h) {
        textChars = 0;
        linkChars = 0;
        String text = inline(h).strip();
        boolean links = linkChars * 5 >= textChars * 4 && !h.normalName().equals("h1");
        if (text.isEmpty() || links) {
            return "";
        }
        wroteH1 |= h.normalName().equals("h1");
        return markdown ? "#".repeat(level(h)) + " " + text : text;
    }

    private void block(Element e, List<String> out) {
        switch (e.normalName()) {
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                String heading = heading(e);
                if (!heading.isEmpty()) {
                    out.add(heading);
                    headings.put(heading, level(e));
                }
            }
            case "ul", "ol" -> add(out, list(e));
            case "pre" -> add(out, code(e));
            case "blockquote" -> add(out, quote(e));
            case "table" -> table(e, out);
            case "hr" -> add(out, markdown ? "---" : "");
            case "img" -> { }
            default -> flow(e, out);
        }
    }

    /** Children of a block: runs of text and inline elements become paragraphs, blocks their own blocks. */
    private void flow(Element e, List<String> out) {
        StringBuilder run = new StringBuilder();
        for (Node child : e.childNodes()) {
            if (child instanceof TextNode t) {
                text(t, run);
            } else if (child instanceof Element c) {
                if (skipped(c)) {
                    headline(c, run, out);
                } else if (INLINE.contains(c.normalName())) {
                    inline(c, run);
                } else {
                    paragraph(run, out);
                    block(c, out);
                    textChars = 0; // the block's own paragraphs were judged inside it
                    linkChars = 0;
                }
            }
        }
        paragraph(run, out);
    }

    /** The article's {@code h1} from a header left out (its byline, date and share buttons stay out). */
    private void headline(Element skipped, StringBuilder run, List<String> out) {
        if (wroteH1 || Boilerplate.isBoilerplate(skipped, false) && !skipped.normalName().equals("header")) {
            return; // a header's own tag, not a script or navigation, may hold the title
        }
        Element h1 = skipped.selectFirst("h1");
        if (h1 != null) {
            paragraph(run, out);
            block(h1, out);
        }
    }

    private void paragraph(StringBuilder run, List<String> out) {
        String p = lineBreaks ? lines(run.toString()) : stripped(run);
        lineBreaks = false;
        run.setLength(0);
        boolean links = linkChars * 5 >= textChars * 4 && textChars < SHORT;
        boolean number = textChars < 12 && p.codePoints().noneMatch(Character::isLetter);
        textChars = 0;
        linkChars = 0;
        if (!p.isEmpty() && !links && !number) {
            out.add(markdown ? escapeStart(p) : p);
        }
    }

    private boolean skipped(Element e) {
        if (Boilerplate.isBoilerplate(e, strict)) {
            return true;
        }
        if (!LINK_BOXES.contains(e.normalName())) {
            return false;
        }
        TextStats text = TextStats.of(e);
        return text.linkDensity() > 0.5 && TextStats.commas(e) < 10;
    }

    private String inline(Element e) {
        StringBuilder sb = new StringBuilder();
        for (Node child : e.childNodes()) {
            inlineNode(child, sb);
        }
        return lines(sb.toString());
    }

    private void inlineNode(Node node, StringBuilder sb) {
        if (node instanceof TextNode t) {
            text(t, sb);
        } else if (node instanceof Element e && !Boilerplate.isBoilerplate(e, strict)) {
            inline(e, sb);
        }
    }

    private void inline(Element e, StringBuilder sb) {
        switch (e.normalName()) {
            case "br" -> {
                sb.append('\n');
                lineBreaks = true;
            }
            case "img", "picture", "source", "wbr" -> { }
            case "a" -> link(e, sb);
            case "strong", "b" -> marked(e, "**", sb);
            case "em", "i", "cite", "dfn" -> marked(e, "*", sb);
            case "del", "s", "strike" -> marked(e, "~~", sb);
            case "code", "kbd", "samp", "tt" -> codeSpan(e, sb);
            default -> {
                boolean block = !INLINE.contains(e.normalName());
                if (block) {
                    space(sb); // a block inside an inline element: its words stay apart
                }
                for (Node child : e.childNodes()) {
                    inlineNode(child, sb);
                }
                if (block) {
                    space(sb);
                }
            }
        }
    }

    private void link(Element a, StringBuilder sb) {
        StringBuilder inner = new StringBuilder();
        inLink++;
        try {
            for (Node child : a.childNodes()) {
                inlineNode(child, inner);
            }
        } finally {
            inLink--;
        }
        String href = markdown ? href(a) : null;
        String text = inner.toString();
        if (href == null || text.isBlank()) {
            sb.append(text);
            return;
        }
        wrap(text, "[", "](" + href.replace(" ", "%20").replace(")", "%29") + ")", sb);
    }

    /** The link's http(s) URL as a browser resolves it (with its fragment), or null. */
    private String href(Element a) {
        if (!a.baseUri().equals(baseUri)) {
            baseUri = a.baseUri();
            base = WebUrl.parse(baseUri) instanceof WebUrl.Parse.Ok ok ? ok.url() : null;
        }
        return base != null && WebUrl.parse(a.attr("href"), base) instanceof WebUrl.Parse.Ok ok ? ok.url().href() : null;
    }

    private void marked(Element e, String mark, StringBuilder sb) {
        StringBuilder inner = new StringBuilder();
        for (Node child : e.childNodes()) {
            inlineNode(child, inner);
        }
        if (markdown) {
            wrap(inner.toString(), mark, mark, sb);
        } else {
            sb.append(inner);
        }
    }

    private void codeSpan(Element e, StringBuilder sb) {
        String code = e.wholeText().replaceAll("\\s+", " ");
        if (code.isBlank()) {
            return;
        }
        textChars += code.length();
        linkChars += inLink > 0 ? code.length() : 0;
        if (!markdown) {
            sb.append(code);
            return;
        }
        String ticks = code.contains("`") ? "``" : "`";
        String pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
        wrap(code, ticks + pad, pad + ticks, sb);
    }

    /** {@code open + text + close}, with the text's outer spaces kept outside the marks, as Markdown needs. */
    private static void wrap(String text, String open, String close, StringBuilder sb) {
        String core = text.strip();
        if (core.isEmpty()) {
            sb.append(text);
            return;
        }
        if (Character.isWhitespace(text.charAt(0))) {
            space(sb);
        }
        sb.append(open).append(core).append(close);
        if (Character.isWhitespace(text.charAt(text.length() - 1))) {
            sb.append(' ');
        }
    }

    /**
     * A text node as HTML shows it: runs of white space are one space; Markdown's marks escaped. Most text needs
     * neither, which one look at its bytes tells ({@link #asWritten}): it is then appended as it is, a copy. Else
     * one loop over a char array, the cases in one switch: a crawl runs on C1 alone (conf/jvm.options), which
     * compiles a call per character, or a {@code charAt}, as a call.
     */
    private void text(TextNode t, StringBuilder sb) {
        String s = t.getWholeText();
        int last = sb.length() - 1;
        boolean white = last < 0 || sb.charAt(last) == ' ' || sb.charAt(last) == '\n';
        int chars = asWritten(s, white);
        if (chars >= 0) {
            sb.append(s);
        } else {
            chars = rewritten(s, white, sb);
        }
        textChars += chars;
        linkChars += inLink > 0 ? chars : 0;
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
                case '\n', '\t', '\r', '\f', (byte) 0xA0 -> {
                    return -1;
                }
                case '\\', '*', '_', '`', '[', ']', '<' -> {
                    if (markdown) {
                        return -1;
                    }
                    white = false;
                }
                default -> white = false;
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
                case '\\', '*', '_', '`', '[', ']', '<' -> {
                    if (markdown) {
                        out[n++] = '\\';
                    }
                    out[n++] = c;
                    white = false;
                    chars++;
                }
                default -> {
                    out[n++] = c;
                    white = false;
                    chars++;
                }
            }
        }
        sb.append(out, 0, n);
        return chars;
    }

    private static void space(StringBuilder sb) {
        int n = sb.length();
        if (n > 0 && sb.charAt(n - 1) != ' ' && sb.charAt(n - 1) != '\n') {
            sb.append(' ');
        }
    }

    private String list(Element list) {
        boolean ordered = list.normalName().equals("ol");
        int number = ordered ? start(list) : 0;
        List<String> items = new ArrayList<>();
        for (Element item : list.children()) {
            if (skipped(item)) {
                continue;
            }
            List<String> blocks = new ArrayList<>();
            if (item.normalName().equals("li")) {
                flow(item, blocks);
            } else {
                block(item, blocks); // a list inside a list without its li, as pages write it
            }
            if (blocks.isEmpty()) {
                continue;
            }
            String marker = ordered ? number++ + ". " : markdown ? "- " : "";
            items.add(marker + indent(String.join("\n", blocks), " ".repeat(marker.length())));
        }
        return String.join("\n", items);
    }

    private String code(Element pre) {
        String code = pre.wholeText().stripTrailing();
        while (code.startsWith("\n")) {
            code = code.substring(1);
        }
        if (code.isBlank() || !markdown) {
            return code;
        }
        String fence = code.contains("```") ? "~~~~" : "```";
        return fence + "\n" + code + "\n" + fence;
    }

    private String quote(Element e) {
        List<String> blocks = new ArrayList<>();
        flow(e, blocks);
        String inner = String.join("\n\n", blocks);
        if (!markdown || inner.isEmpty()) {
            return inner;
        }
        return "> " + inner.replace("\n", "\n> ").replace("\n> \n", "\n>\n");
    }

    /** A data table as a Markdown table; a table that lays out a page (nested, or one column) as its blocks. */
    private void table(Element table, List<String> out) {
        List<List<String>> rows = new ArrayList<>();
        int width = 0;
        for (Element row : table.select("tr")) {
            if (row.closest("table") != table) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (Element cell : row.children()) {
                if (cell.normalName().equals("td") || cell.normalName().equals("th")) {
                    cells.add(inline(cell).replace("\n", " ").replace("|", markdown ? "\\|" : "|"));
                }
            }
            width = Math.max(width, cells.size());
            rows.add(cells);
        }
        if (width < 2 || !table.select("table table").isEmpty()) {
            flow(table, out);
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            List<String> cells = rows.get(r);
            while (cells.size() < width) {
                cells.add("");
            }
            if (markdown) {
                sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
                if (r == 0) {
                    sb.append("|").append(" --- |".repeat(width)).append('\n');
                }
            } else {
                sb.append(String.join("\t", cells).strip()).append('\n');
            }
        }
        add(out, sb.toString().stripTrailing());
    }

    private static int start(Element ol) {
        try {
            return ol.hasAttr("start") ? Integer.parseInt(ol.attr("start").strip()) : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static int level(Element h) {
        return h.normalName().charAt(1) - '0';
    }

    private static String indent(String text, String pad) {
        return pad.isEmpty() ? text : text.replace("\n", "\n" + pad);
    }

    /** Each line stripped, blank lines gone. */
    /** The run's text without white space at its ends, copied once (a page's text may be most of the page). */
    private static String stripped(StringBuilder run) {
        int start = 0;
        int end = run.length();
        while (start < end && Character.isWhitespace(run.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(run.charAt(end - 1))) {
            end--;
        }
        return run.substring(start, end);
    }

    private static String lines(String s) {
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

    /** A paragraph that starts like a heading, a quote, a list item or a rule is escaped, to stay a paragraph. */
    private static String escapeStart(String p) {
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

    private static void add(List<String> out, String block) {
        if (!block.isEmpty()) {
            out.add(block);
        }
    }
}
