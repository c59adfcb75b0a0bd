package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.url.WebUrl;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jspecify.annotations.Nullable;

/**
 * The inline content of blocks as {@link MarkdownWriter} writes it: text, links (resolved as a browser resolves
 * them), emphasis, code spans and line breaks. It counts the text it writes, and how much of it is inside links,
 * so the writer can tell a paragraph of prose from one of navigation.
 */
final class MarkdownInline {
    private static final Set<String> INLINE = Set.of("a", "abbr", "b", "bdi", "bdo", "big", "br", "cite", "code",
            "data", "del", "dfn", "em", "font", "i", "img", "ins", "kbd", "mark", "picture", "q", "s", "samp", "small",
            "source", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr");

    private final boolean markdown;
    private final Boilerplate boilerplate;
    private final MarkdownText text;
    /** Text characters of the paragraph being written, and how many of them are inside links. */
    private int textChars;
    private int linkChars;
    private int inLink;
    /** Whether a {@code <br>} wrote a line break since the last paragraph: the only way one gets into a paragraph. */
    private boolean lineBreaks;
    /** The base URL links resolve against, parsed once: {@code <base href>} or the page's URL. */
    private String baseUri = "";
    private @Nullable WebUrl base;

    /** @param boilerplate what this reading leaves out */
    MarkdownInline(boolean markdown, Boilerplate boilerplate) {
        this.markdown = markdown;
        this.boilerplate = boilerplate;
        this.text = new MarkdownText(markdown);
    }

    static boolean isInline(Element e) {
        return INLINE.contains(e.normalName());
    }

    int textChars() {
        return textChars;
    }

    int linkChars() {
        return linkChars;
    }

    /** Starts counting afresh, for the next paragraph. */
    void recount() {
        textChars = 0;
        linkChars = 0;
    }

    /** Whether a line break was written since the last call. */
    boolean takeLineBreaks() {
        boolean had = lineBreaks;
        lineBreaks = false;
        return had;
    }

    /** The inline content of {@code e}, each line stripped. */
    String of(Element e) {
        StringBuilder sb = new StringBuilder();
        for (Node child : e.childNodes()) {
            inlineNode(child, sb);
        }
        return MarkdownText.lines(sb.toString());
    }

    private void inlineNode(Node node, StringBuilder sb) {
        if (node instanceof TextNode t) {
            text(t, sb);
        } else if (node instanceof Element e && !boilerplate.leftOut(e)) {
            element(e, sb);
        }
    }

    /** An inline element, appended to the paragraph being written. */
    void element(Element e, StringBuilder sb) {
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
                    MarkdownText.space(sb); // a block inside an inline element: its words stay apart
                }
                for (Node child : e.childNodes()) {
                    inlineNode(child, sb);
                }
                if (block) {
                    MarkdownText.space(sb);
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
        spaceBefore(a, sb);
        if (href == null || text.isBlank()) {
            sb.append(text);
            return;
        }
        MarkdownText.wrap(text, "[", "](" + href.replace(" ", "%20").replace(")", "%29") + ")", sb);
    }

    /** The link's http(s) URL as a browser resolves it (with its fragment), or null. */
    private @Nullable String href(Element a) {
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
        spaceBefore(e, sb);
        if (markdown) {
            MarkdownText.wrap(inner.toString(), mark, mark, sb);
        } else {
            sb.append(inner);
        }
    }

    /**
     * A space the element's text begins with ({@code the<a> link</a>}) is a space before it: the element's text
     * is written into a builder of its own, which drops a first space as a paragraph's start does.
     */
    private static void spaceBefore(Element e, StringBuilder sb) {
        for (Node n = e.firstChild(); n != null; n = n.firstChild()) {
            if (n instanceof TextNode t) {
                String s = t.getWholeText();
                if (!s.isEmpty() && Character.isWhitespace(s.charAt(0))) {
                    MarkdownText.space(sb);
                }
                return;
            }
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
        MarkdownText.wrap(code, ticks + pad, pad + ticks, sb);
    }

    /**
     * A text node as HTML shows it ({@link MarkdownText#append}), its characters counted for the paragraph's
     * share of link text.
     */
    void text(TextNode t, StringBuilder sb) {
        String s = t.getWholeText();
        int last = sb.length() - 1;
        boolean white = last < 0 || sb.charAt(last) == ' ' || sb.charAt(last) == '\n';
        int chars = text.append(s, white, sb);
        textChars += chars;
        linkChars += inLink > 0 ? chars : 0;
    }
}
