package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.url.WebUrl;
import java.util.HashSet;
import java.util.IdentityHashMap;
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
    private static final Set<String> INLINE = Set.of("a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite",
            "code", "data", "del", "dfn", "em", "font", "i", "img", "ins", "kbd", "mark", "math", "nobr", "picture",
            "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "small", "source", "span", "strike", "strong", "sub",
            "sup", "time", "tt", "u", "var", "wbr");

    private final boolean markdown;
    private final Boilerplate boilerplate;
    private final MarkdownText text;
    /** Text characters of the paragraph being written, and how many of them are inside links. */
    private int textChars;
    private int linkChars;
    /** Whether the text of the paragraph being written holds a letter (link targets and marks are no text). */
    private boolean letter;
    private int inLink;
    /** Whether an empty builder being written follows white space: at a paragraph's start it does ({@link #apart}). */
    private boolean whiteAtStart = true;
    /** Whether a {@code <br>} wrote a line break since the last paragraph: the only way one gets into a paragraph. */
    private boolean lineBreaks;
    /** Where the last {@code **}, {@code *} or {@code ~~} closed: the builder, its length then, and the mark. */
    private @Nullable StringBuilder closedIn;
    private int closedAt;
    private String closedMark = "";
    /** Custom elements met, by identity, and whether each is inline ({@link #isInline}). */
    private final IdentityHashMap<Element, Boolean> customInline = new IdentityHashMap<>();
    /** The marks open around what is being written: a mark inside one of its kind is not written again. */
    private final Set<String> open = new HashSet<>(4);
    /** The base URL links resolve against, parsed once: {@code <base href>} or the page's URL; none: absolute links only. */
    private String baseUri = "";
    private @Nullable WebUrl base;

    /** @param boilerplate what this reading leaves out */
    MarkdownInline(boolean markdown, Boilerplate boilerplate) {
        this.markdown = markdown;
        this.boilerplate = boilerplate;
        this.text = new MarkdownText(markdown);
    }

    /**
     * Whether a browser shows {@code e} inside the line, by its tag; a custom element ({@code <hl-trusted-source>})
     * is shown so unless it holds blocks, as CSS shows an element it has no rule for. Each custom element's answer is
     * kept: asked again at every level of a nest of them, it would cost a page of them the square of its size.
     */
    boolean isInline(Element e) {
        String name = e.normalName();
        if (INLINE.contains(name) || MarkdownMath.is(e)) {
            return true;
        }
        if (name.indexOf('-') < 0) {
            return false;
        }
        Boolean known = customInline.get(e);
        if (known != null) {
            return known;
        }
        boolean inline = true;
        for (Element child : e.children()) {
            if (!isInline(child)) {
                inline = false;
                break;
            }
        }
        customInline.put(e, inline);
        return inline;
    }

    int textChars() {
        return textChars;
    }

    int linkChars() {
        return linkChars;
    }

    boolean wroteLetter() {
        return letter;
    }

    /** Starts counting afresh, for the next paragraph. */
    void recount() {
        textChars = 0;
        linkChars = 0;
        letter = false;
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

    /** The inline content of {@code e} without the blocks inside it, each line stripped. */
    String withoutBlocks(Element e) {
        StringBuilder sb = new StringBuilder();
        for (Node child : e.childNodes()) {
            if (!(child instanceof Element c) || isInline(c)) {
                inlineNode(child, sb);
            }
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
        if (MarkdownMath.is(e)) {
            math(e, sb);
            return;
        }
        switch (e.normalName()) {
            case "br" -> {
                sb.append('\n');
                lineBreaks = true;
            }
            // A ruby's annotations (a reading of its base text, and the parentheses shown where ruby is not) are
            // not the text: the words are the base's, as search indexes them and trafilatura reads them
            case "img", "picture", "source", "wbr", "rt", "rp", "rtc" -> { }
            case "a" -> link(e, sb);
            case "strong", "b" -> marked(e, "**", sb);
            case "em", "i", "cite", "dfn" -> marked(e, "*", sb);
            case "del", "s", "strike" -> marked(e, "~~", sb);
            case "code", "kbd", "samp", "tt" -> codeSpan(e, sb);
            default -> {
                boolean block = !isInline(e);
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
        if (MarkdownLinks.permalink(a)) {
            return;
        }
        if (MarkdownLinks.toOwnHeading(a)) {
            sb.append(apart(a, sb));
            return;
        }
        String text;
        inLink++;
        try {
            text = apart(a, sb);
        } finally {
            inLink--;
        }
        String href = markdown ? href(a) : null;
        if (href == null || text.isBlank()) {
            sb.append(text);
            return;
        }
        int last = sb.length() - 1;
        if (last >= 0 && sb.charAt(last) == '!' && !Character.isWhitespace(text.charAt(0))
                && (last == 0 || sb.charAt(last - 1) != '\\')) {
            sb.insert(last, '\\'); // "Click![here](…)" is an image
        }
        MarkdownMarks.wrap(text, "[", "](" + MarkdownLinks.destination(href) + ")", white(sb), sb);
    }

    /** The link's http(s) URL as a browser resolves it (with its fragment), or null. */
    private @Nullable String href(Element a) {
        if (!a.baseUri().equals(baseUri)) {
            baseUri = a.baseUri();
            base = WebUrl.parse(baseUri) instanceof WebUrl.Parse.Ok ok ? ok.url() : null;
        }
        return WebUrl.parse(a.attr("href"), base) instanceof WebUrl.Parse.Ok ok ? ok.url().href() : null;
    }

    private void marked(Element e, String mark, StringBuilder sb) {
        if (!markdown || !open.add(mark)) {
            // Bold in bold is bold, as a browser shows it; written twice, <em><i>x</i></em> would be **x**, strong
            sb.append(apart(e, sb));
            return;
        }
        String inner;
        try {
            inner = apart(e, sb);
        } finally {
            open.remove(mark);
        }
        if (inner.isBlank()) {
            sb.append(inner);
            closedIn = null;
            return;
        }
        // A mark right after one of its kind (a drop cap, <b>r</b><b>eactivación</b>) goes on with it: in
        // "**r****eactivación**" CommonMark reads no strong text at all
        boolean goesOn = sb == closedIn && sb.length() == closedAt && mark.equals(closedMark)
                && !Character.isWhitespace(inner.charAt(0));
        if (goesOn) {
            sb.setLength(sb.length() - mark.length());
        }
        boolean closed = MarkdownMarks.emphasis(inner, mark, white(sb), goesOn, sb);
        closedIn = closed ? sb : null; // not after a space or punctuation: the next mark is apart
        closedAt = sb.length();
        closedMark = mark;
    }

    /**
     * The inline content of {@code e}, written apart from {@code sb} (to go between marks) as it would be written
     * at the end of {@code sb}: a space it begins with is kept after a word ({@code the<a> link</a>}), its marks
     * ({@link MarkdownMarks#wrap}) then putting the space outside them.
     */
    private String apart(Element e, StringBuilder sb) {
        boolean outer = whiteAtStart;
        whiteAtStart = white(sb);
        try {
            StringBuilder inner = new StringBuilder();
            for (Node child : e.childNodes()) {
                inlineNode(child, inner);
            }
            return inner.toString();
        } finally {
            whiteAtStart = outer;
        }
    }

    /** A space at the end of {@code sb}, unless it follows white space already. */
    private void space(StringBuilder sb) {
        if (!white(sb)) {
            sb.append(' ');
        }
    }

    /** Whether what is written at the end of {@code sb} follows white space (or nothing, at a paragraph's start). */
    private boolean white(StringBuilder sb) {
        int last = sb.length() - 1;
        return last < 0 ? whiteAtStart : sb.charAt(last) == ' ' || sb.charAt(last) == '\n';
    }

    /** A formula as TeX, counted as text: its TeX, the same in Markdown and text. */
    private void math(Element e, StringBuilder sb) {
        String tex = MarkdownMath.tex(e);
        textChars += tex.length();
        linkChars += inLink > 0 ? tex.length() : 0;
        letter = letter || hasLetter(tex);
        if (markdown && !tex.isEmpty() && !sb.isEmpty() && sb.charAt(sb.length() - 1) == '$') {
            sb.append(' '); // "$a$$b$" would read as marks of a formula set apart
        }
        sb.append(markdown ? MarkdownMath.markdown(e, tex) : tex);
    }

    private void codeSpan(Element e, StringBuilder sb) {
        // a no-break space is a space, each one: Javadoc writes a parameter "E&nbsp;e", PostgreSQL's manual shows
        // spacing that matters as "'-&nbsp;&nbsp;12'"
        String code = e.wholeText().replaceAll("\\s+", " ").replace('\u00A0', ' ');
        if (code.isBlank()) {
            return;
        }
        textChars += code.length();
        linkChars += inLink > 0 ? code.length() : 0;
        letter = letter || hasLetter(code);
        if (!markdown) {
            sb.append(code);
            return;
        }
        String ticks = MarkdownMarks.ticksAround(code, 1);
        String pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
        MarkdownMarks.wrap(code, ticks + pad, pad + ticks, white(sb), sb);
    }

    /**
     * A text node as HTML shows it ({@link MarkdownText#append}), its characters counted for the paragraph's
     * share of link text.
     */
    void text(TextNode t, StringBuilder sb) {
        String s = t.getWholeText();
        int chars = text.append(s, white(sb), sb);
        textChars += chars;
        linkChars += inLink > 0 ? chars : 0;
        letter = letter || hasLetter(s);
    }

    private static boolean hasLetter(String s) {
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            if (Character.isLetter(c)) {
                return true;
            }
            i += Character.charCount(c);
        }
        return false;
    }
}
