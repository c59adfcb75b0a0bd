package dev.loomcrawl.crawler.content;

import java.util.List;
import java.util.function.BiConsumer;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jspecify.annotations.Nullable;

/**
 * Writes the blocks {@link Election} chose as Markdown (CommonMark, with GitHub's tables and
 * strike-through) or as plain text. Both come from one walk, so they hold the same words: text is Markdown
 * without its marks and link targets. Written from Jsoup's tree directly, as the page was parsed: an HTML to
 * Markdown library would want the HTML written out and parsed again.
 *
 * <p>On the way it leaves out what {@link Boilerplate} names, images, boxes of links and paragraphs of navigation
 * ({@link MarkdownLeftOut}), headings that are all link, and headings left with nothing under them. A page header is
 * left out, but not the article's {@code h1} in it. Inline content is {@link MarkdownInline}'s to write; how blocks
 * join, {@link MarkdownBlocks}'; how a list reads, {@link MarkdownLists}'.
 */
final class MarkdownWriter {
    /**
     * Quotes and lists nested deeper than this are written as the paragraphs they hold. No page nests deeper for its
     * reader, and each level writes its marks before every line of all it holds: 512 levels of quotes (as deep as
     * the parser nests) would make a page's text hundreds of times longer, and take minutes to write.
     */
    private static final int NESTING = 16;

    private final boolean markdown;
    private final Boilerplate boilerplate;
    private final BlockCounts counts;
    private final MarkdownLeftOut leftOut;
    private final MarkdownTabs tabs = new MarkdownTabs();
    private final MarkdownLists lists;
    /** Writes the inline content of blocks, and counts its text and link text for the paragraph being written. */
    private final MarkdownInline inline;
    /** Quotes and lists around the block being written. */
    private int nesting;
    private boolean wroteH1;
    private int paragraphChars;
    /** Whether the block being written is a definition's value or a declaration: see {@link #definition}. */
    private boolean definition;

    /**
     * @param boilerplate what this reading leaves out
     * @param counts what the page's blocks hold
     */
    MarkdownWriter(boolean markdown, Boilerplate boilerplate, BlockCounts counts) {
        this.markdown = markdown;
        this.boilerplate = boilerplate;
        this.counts = counts;
        this.inline = new MarkdownInline(markdown, boilerplate);
        this.leftOut = new MarkdownLeftOut(boilerplate, counts);
        this.lists = new MarkdownLists(markdown, counts, leftOut, this::flow, this::block);
    }

    /** This writer, keeping a list's items that are all link: a table of contents ({@link ContentsPage}). */
    MarkdownWriter keepingLinkItems() {
        lists.keepLinkItems();
        return this;
    }

    /** The blocks, in order, a blank line between blocks; "" when nothing in them is text. */
    String write(List<Element> roots) {
        MarkdownBlocks blocks = new MarkdownBlocks(markdown);
        for (Element root : roots) {
            block(root, blocks);
        }
        return blocks.content();
    }

    /**
     * The characters other than spaces of the paragraphs written (list items, quotes and cells among them), the same
     * in Markdown and text: the text's length is never less.
     */
    int paragraphChars() {
        return paragraphChars;
    }

    boolean markdown() {
        return markdown;
    }

    /** Whether the blocks written held an {@code h1}. */
    boolean wroteH1() {
        return wroteH1;
    }

    /**
     * A heading as its own block, for a title that stands outside the chosen blocks; a title set as no heading
     * ({@link Headings#isTitle}) as an {@code h1}, without the breadcrumb of its groups that Doxygen sets inside it.
     */
    String heading(Element h) {
        inline.recount();
        boolean isHeading = Headings.is(h);
        int level = isHeading ? Headings.level(h) : 1;
        String text = (isHeading ? inline.of(h) : inline.withoutBlocks(h)).strip();
        if (markdown) {
            text = text.replace('\n', ' '); // "# " holds one line
        }
        boolean links = inline.linkChars() * 5 >= inline.textChars() * 4 && level != 1;
        if (text.isEmpty() || links) {
            return "";
        }
        wroteH1 |= level == 1;
        return markdown ? "#".repeat(level) + " " + text : text;
    }

    /**
     * An article's lead from beside its title: as a paragraph, whatever its tag (some sites give it an {@code h2}),
     * not counted in {@link #paragraphChars}.
     */
    String lead(Element e) {
        if (!Headings.is(e)) {
            int chars = paragraphChars;
            String lead = write(List.of(e));
            paragraphChars = chars; // the blocks' own words decide between readings; a lead is the same beside each
            return lead;
        }
        inline.recount();
        String text = inline.of(e).strip();
        inline.recount();
        return markdown ? MarkdownText.hardLines(text) : text;
    }

    private void block(Element e, MarkdownBlocks out) {
        if (e.nameIs("dl") && (lists.linkItemsKept() || MarkdownLists.linksAlone(e))) {
            // a page of contents' terms are its entries (DocBook's table of contents), and so are links alone
            nested(e, out, lists::terms);
            return;
        }
        if (MarkdownCode.isLines(e)) {
            out.paragraph(MarkdownCode.fenced(e, markdown)); // Doxygen's code, a pre to its reader
            return;
        }
        switch (e.normalName()) {
            case "h1", "h2", "h3", "h4", "h5", "h6" -> out.heading(heading(e), Headings.level(e));
            case "ul", "ol" -> nested(e, out, lists::list);
            case "pre" -> out.paragraph(MarkdownCode.fenced(e, markdown));
            case "blockquote" -> nested(e, out, this::quote);
            case "table" -> table(e, out);
            case "hr" -> out.rule();
            case "dt", "dd" -> definition(e, out);
            case "img" -> { }
            default -> {
                List<List<Element>> grid = MarkdownTable.grid(e);
                if (grid != null && MarkdownTable.width(grid) >= 2) {
                    out.table(MarkdownTable.write(grid, inline::of, markdown));
                } else if (Declarations.is(e)) {
                    definition(e, out);
                } else {
                    flow(e, out);
                }
            }
        }
    }

    /**
     * A definition: its term and its value, a link or a number as each may be ("Enclosing class: CompletableFuture",
     * "Since: 1.8"; TypeDoc's index of a module, each member's name a link to its page), is no menu's link nor a
     * count of votes; nor are the types a declaration names.
     */
    private void definition(Element e, MarkdownBlocks out) {
        boolean outer = definition;
        definition = true;
        flow(e, out);
        definition = outer;
    }

    /** A quote or list written as such, or as the paragraphs it holds when nested too deep. */
    private void nested(Element e, MarkdownBlocks out, BiConsumer<Element, MarkdownBlocks> writer) {
        if (nesting == NESTING) {
            flow(e, out);
            return;
        }
        nesting++;
        writer.accept(e, out);
        nesting--;
    }

    /** Children of a block: runs of text and inline elements become paragraphs, blocks their own blocks. */
    private void flow(Element e, MarkdownBlocks out) {
        StringBuilder run = new StringBuilder();
        @Nullable Element written = null; // the last sibling a tab set took
        for (Node child : e.childNodes()) {
            if (child instanceof TextNode t) {
                inline.text(t, run);
            } else if (child instanceof Element c) {
                MarkdownTabs.TabSet tabs;
                if (written != null) {
                    written = c == written ? null : written;
                } else if ((tabs = this.tabs.of(c)) != null) {
                    paragraph(run, out);
                    tabs(tabs, out);
                    written = tabs.last();
                } else if (leftOut.skipped(c)) {
                    headline(c, run, out);
                } else if (inline.isInline(c)) {
                    inline.element(c, run);
                } else {
                    paragraph(run, out);
                    block(c, out);
                    inline.recount(); // the block's own paragraphs were judged inside it
                }
            }
        }
        paragraph(run, out);
    }

    /**
     * Each tab's name as a paragraph of its own, its words only (some tabs are links to their panels), then its
     * panel, hidden or not: one not yet opened is hidden and still the page's. A panel that writes nothing takes
     * its name with it.
     */
    private void tabs(MarkdownTabs.TabSet tabs, MarkdownBlocks out) {
        for (int i = 0; i < tabs.names().size(); i++) {
            int before = out.count();
            int chars = paragraphChars;
            StringBuilder name = new StringBuilder();
            inline.text(new TextNode(tabs.names().get(i).text()), name);
            paragraph(name, out);
            int named = out.count();
            block(tabs.panels().get(i), out);
            inline.recount();
            if (out.count() == named) {
                out.keep(before);
                paragraphChars = chars;
            }
        }
    }

    /**
     * The article's {@code h1} from a header left out, and its lead after it (its byline, date and share buttons stay
     * out).
     */
    private void headline(Element skipped, StringBuilder run, MarkdownBlocks out) {
        if (wroteH1 || boilerplate.leftOutByTag(skipped) && !skipped.normalName().equals("header")) {
            return; // a header's own tag, not a script or navigation, may hold the title
        }
        Element h1 = skipped.selectFirst("h1");
        if (h1 != null) {
            paragraph(run, out);
            block(h1, out);
            for (Element e = h1.nextElementSibling(); e != null; e = e.nextElementSibling()) {
                // the standfirst under the title, as the header shows it; not a section named for an introduction
                // (Python's manual: introduction-to-the-profilers), left out with its header for a word in its id
                if (MarkdownTitle.isLead(e) && e.children().select(Headings.SELECTOR).isEmpty()) {
                    block(e, out);
                    break;
                }
            }
        }
    }

    private void paragraph(StringBuilder run, MarkdownBlocks out) {
        String p = inline.takeLineBreaks() ? MarkdownText.lines(run.toString()) : MarkdownText.stripped(run);
        run.setLength(0);
        int textChars = inline.textChars();
        boolean navigation = MarkdownLeftOut.navigation(textChars, inline.linkChars(), inline.wroteLetter(),
                lists.prose(), definition);
        inline.recount();
        if (!p.isEmpty() && !navigation) {
            paragraphChars += textChars;
            out.paragraph(markdown ? MarkdownText.hardLines(p) : p);
        }
    }

    private void quote(Element e, MarkdownBlocks out) {
        MarkdownBlocks blocks = new MarkdownBlocks(markdown);
        flow(e, blocks);
        String inner = blocks.apart();
        out.quote(!markdown || inner.isEmpty() ? inner : "> " + inner.replace("\n", "\n> ").replace("\n> \n", "\n>\n"));
    }

    /**
     * A data table as a Markdown table; a table that lays out a page (nested, or one column) as its blocks, one that
     * sets code beside its line numbers as the code, one that lays out a tree ({@link DirectoryTable}) as a list, and
     * one that lays out a declaration as its line.
     */
    private void table(Element table, MarkdownBlocks out) {
        if (DirectoryTable.tree(table)) {
            String mark = MarkdownLists.bullet(out);
            out.list(DirectoryTable.write(table, inline::of, mark, markdown), mark);
            return;
        }
        Element declaration = Declarations.signature(table);
        if (declaration != null) {
            out.paragraph(Declarations.line(table, declaration, inline::of, markdown));
            return;
        }
        List<List<Element>> rows = MarkdownTable.rows(table);
        if (MarkdownCode.numbersBesideCode(rows)) {
            for (List<Element> row : rows) {
                for (Element cell : row) {
                    if (!MarkdownCode.gutter(cell)) {
                        flow(cell, out); // the code, and a file's name above it (Pygments)
                    }
                }
            }
            return;
        }
        if (MarkdownTable.width(rows) < 2 || counts.holdsTable(table)) {
            flow(table, out);
            return;
        }
        out.table(MarkdownTable.write(rows, inline::of, markdown));
    }
}
