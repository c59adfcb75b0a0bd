package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.jsoup.nodes.Element;

/**
 * How a list reads: as items, or as the sections it lays out; where an ordered one starts; and whether its short
 * items of links are items or navigation. What an item holds is {@link MarkdownWriter}'s to write, through the two
 * steps of its walk it lends this class.
 */
final class MarkdownLists {
    /** A list with less link text than this share is prose: a short item of links in it is an item. */
    private static final double PROSE_LINKS = 0.5;

    private final boolean markdown;
    private final BlockCounts counts;
    private final MarkdownLeftOut leftOut;
    /** The writer's: an element's children, runs of inline content as paragraphs and blocks as blocks. */
    private final BiConsumer<Element, MarkdownBlocks> flow;
    /** The writer's: one block, whatever it is. */
    private final BiConsumer<Element, MarkdownBlocks> block;
    /** Whether the list being written is mostly not links. */
    private boolean prose;
    /** Whether every list is prose: a page of contents, whose items are links. */
    private boolean linkItemsKept;

    MarkdownLists(boolean markdown, BlockCounts counts, MarkdownLeftOut leftOut,
            BiConsumer<Element, MarkdownBlocks> flow, BiConsumer<Element, MarkdownBlocks> block) {
        this.markdown = markdown;
        this.counts = counts;
        this.leftOut = leftOut;
        this.flow = flow;
        this.block = block;
    }

    /** Keeps a list's items that are all link, from now on: a table of contents ({@link ContentsPage}). */
    void keepLinkItems() {
        linkItemsKept = true;
    }

    boolean linkItemsKept() {
        return linkItemsKept;
    }

    /** Whether the list being written is mostly not links: its short items of links are items, not navigation. */
    boolean prose() {
        return prose;
    }

    /** A {@code ul} or {@code ol}: its items, marked, each item's blocks indented under its mark. */
    void list(Element list, MarkdownBlocks out) {
        if (ofSections(list)) {
            for (Element item : list.children()) {
                if (!leftOut.skipped(item)) {
                    flow.accept(item, out);
                }
            }
            return;
        }
        boolean ordered = list.normalName().equals("ol");
        // Two lists one after the other with the same mark are one list to CommonMark, renumbered: the second
        // takes the other mark ("1)" after "1.", "*" after "-")
        String mark = ordered ? (".".equals(out.listMarkAtEnd()) ? ")" : ".") : bullet(out);
        int number = ordered ? start(list) : 0;
        List<String> items = new ArrayList<>();
        boolean outerProse = prose;
        prose = linkItemsKept || counts.linkDensity(list) < PROSE_LINKS || MarkdownLeftOut.announced(list, counts);
        for (Element item : list.children()) {
            if (leftOut.skipped(item)) {
                continue;
            }
            MarkdownBlocks blocks = new MarkdownBlocks(markdown);
            if (item.normalName().equals("li")) {
                flow.accept(item, blocks);
            } else {
                block.accept(item, blocks); // a list inside a list without its li, as pages write it
            }
            String body = blocks.item();
            if (body.isEmpty()) {
                continue;
            }
            String marker = ordered ? number++ + (markdown ? mark : ".") + " " : markdown ? mark + " " : "";
            addItem(body, marker, items);
        }
        prose = outerProse;
        out.list(String.join("\n", items), mark);
    }

    /**
     * A definition list on a page of contents, or of links alone ({@link #linksAlone}), as a list: each term an
     * item, with what its definitions hold under it (DocBook's table of contents: a section's link, and in its
     * {@code dd} the list of its subsections).
     */
    void terms(Element dl, MarkdownBlocks out) {
        String mark = bullet(out);
        String marker = markdown ? mark + " " : "";
        List<String> items = new ArrayList<>();
        MarkdownBlocks item = new MarkdownBlocks(markdown);
        boolean outerProse = prose;
        prose = true; // a page of contents' items are links, and so are those of links alone
        for (Element part : dl.children()) {
            if (part.nameIs("dt")) {
                addItem(item.item(), marker, items);
                item = new MarkdownBlocks(markdown);
            }
            Element only = part.childrenSize() == 1 ? part.child(0) : null;
            if (part.nameIs("dd") && only != null && only.nameIs("dl")) {
                block.accept(only, item); // the next level of entries, all links too: no box of links to leave out
            } else if (!leftOut.skipped(part)) {
                flow.accept(part, item);
            }
        }
        addItem(item.item(), marker, items);
        prose = outerProse;
        out.list(String.join("\n", items), mark);
    }

    /**
     * Whether a definition list holds links alone, each term one link and every definition empty: TypeDoc's index of
     * a namespace's members, each a link to the member's page, when no member has a summary. Its terms are the items
     * of a list. A declaration with nothing under it (Sphinx's member of a C struct, its type a link) is not one.
     */
    static boolean linksAlone(Element dl) {
        boolean terms = false;
        for (Element part : dl.children()) {
            if (part.nameIs("dd") && !part.text().isBlank() || part.nameIs("dt") && !oneLink(part)) {
                return false;
            }
            terms |= part.nameIs("dt");
        }
        return terms;
    }

    /** Whether all the words of {@code e} are one link's. */
    private static boolean oneLink(Element e) {
        List<Element> worded = e.select("a[href]").stream().filter(a -> !a.text().isBlank()).toList();
        return worded.size() == 1 && worded.getFirst().text().equals(e.text());
    }

    /**
     * The mark of an unordered list written after what {@code out} holds: {@code *} right after a list marked
     * {@code -}, which CommonMark would otherwise read as one list with it.
     */
    static String bullet(MarkdownBlocks out) {
        return "-".equals(out.listMarkAtEnd()) ? "*" : "-";
    }

    private static void addItem(String body, String marker, List<String> items) {
        if (!body.isEmpty()) {
            items.add(marker + MarkdownText.indent(body, " ".repeat(marker.length())));
        }
    }

    /**
     * A list that lays out sections, each item opening with its heading (Javadoc's summaries and details, a page's
     * chapters): written as the sections, not as items whose text starts with {@code ## Method Summary}.
     */
    private static boolean ofSections(Element list) {
        if (list.childrenSize() == 0) {
            return false;
        }
        for (Element item : list.children()) {
            if (!item.nameIs("li") || !Headings.open(item)) {
                return false;
            }
        }
        return true;
    }

    /** The number of an ordered list's first item: its {@code start}, else 1. */
    private static int start(Element ol) {
        try {
            return ol.hasAttr("start") ? Integer.parseInt(ol.attr("start").strip()) : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
