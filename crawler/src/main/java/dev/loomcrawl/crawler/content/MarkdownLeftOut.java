package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;

/**
 * What {@link MarkdownWriter} leaves out on its way through the chosen blocks, beyond what the reading's
 * {@link Boilerplate} does: boxes and lists of links (more than half their text in links, fewer than ten commas:
 * "related", tag clouds, pagination), as Readability's cleaning does; and, as trafilatura does, short paragraphs and
 * items that are all link ("Post reply", a user name, a "Next" link) and paragraphs that are a number alone (votes,
 * counts). A box of links that a paragraph announces ("… is:") is no box of links, nor is an API's declaration or
 * Doxygen's list of a project's parts ({@link DirectoryTable}).
 */
final class MarkdownLeftOut {
    /** A paragraph this short whose text is nearly all link text is navigation, not prose. */
    private static final int SHORT = 120;
    /** A paragraph this short with no letter is a number alone. */
    private static final int NUMBER = 12;
    /** A paragraph this long, mostly not links, is prose: a box that holds one is a section, not a box of links. */
    private static final int PROSE = 80;

    private final Boilerplate boilerplate;
    private final BlockCounts counts;

    MarkdownLeftOut(Boilerplate boilerplate, BlockCounts counts) {
        this.boilerplate = boilerplate;
        this.counts = counts;
    }

    /**
     * Left out by the reading, or a box of links: mostly link text, few commas (a menu, a teaser list). A list is
     * kept whatever its links, as Readability keeps one (a post that is a link roll, a reading list), unless its class
     * and id weigh against it (a list of share links); a definition list too (TypeDoc's index of a namespace's
     * members, Doxygen's "See also"), which Readability never cleans; so is a table with headings or a caption, a data
     * table (a table of downloads).
     */
    boolean skipped(Element e) {
        if (boilerplate.leftOut(e)) {
            return true;
        }
        return switch (e.normalName()) {
            case "ul", "ol", "dl" -> Boilerplate.weight(e) < 0 && counts.linkDensity(e) > 0.5;
            // Readability's test of a data table, in part: headings or a caption
            case "table" -> linkBox(e) && e.selectFirst("th, thead, caption") == null && !DirectoryTable.is(e)
                    && !Declarations.is(e);
            case "div", "section" -> DirectoryTable.levels(e)
                    || linkBox(e) && !announced(e, counts) && !Declarations.is(e) && !DirectoryTable.is(e);
            default -> false;
        };
    }

    /**
     * A box of links, unless it is or holds the page's {@code <main>}: a page whose main content is a paragraph and a
     * list of links (a book's translations) was otherwise left out whole, wrappers and all. Nor a box with a paragraph
     * of prose of its own ({@link #PROSE}): Sphinx's index of a part, its introduction and the tree of its chapters in
     * one {@code section}; a teaser's summary is a paragraph of the teaser, not of the box of teasers. Nor one with a
     * declaration of its own: a type alias's page, its title and its declaration of the types it joins.
     */
    private boolean linkBox(Element e) {
        return counts.linkDensity(e) > 0.5 && counts.commas(e) < 10 && !boilerplate.holdsMain(e) && !holdsOwnText(e);
    }

    /**
     * Whether a list of links (or the box around it) is what the paragraph of prose before it announces, that
     * paragraph ending in a colon: Sphinx's chapter pages, "The full list of modules in this chapter is:" and the tree
     * of its modules, which is the chapter's content. Its items are kept; lists of links inside them are not.
     */
    static boolean announced(Element e, BlockCounts counts) {
        Element before = e.previousElementSibling();
        if (before == null) {
            Element parent = e.parent();
            return parent != null && (e.nameIs("ul") || e.nameIs("ol")) && parent.childrenSize() == 1
                    && (parent.nameIs("div") || parent.nameIs("section")) && announced(parent, counts);
        }
        return prose(before, counts) && before.text().strip().endsWith(":");
    }

    private boolean holdsOwnText(Element e) {
        for (Element p : e.children()) {
            if (prose(p, counts) || Declarations.is(p)) {
                return true;
            }
        }
        return false;
    }

    /** A paragraph of prose: {@value #PROSE} characters or more, mostly not links. */
    private static boolean prose(Element p, BlockCounts counts) {
        return p.nameIs("p") && counts.chars(p) >= PROSE && counts.linkDensity(p) < 0.5;
    }

    /**
     * Whether a paragraph written is navigation or a number alone, to be left out.
     *
     * @param proseList whether it is an item of a list mostly not links: a short item of links there is an item
     * @param definition whether it is a definition's value ({@code dd}): a link or a number there is the value
     */
    static boolean navigation(int textChars, int linkChars, boolean wroteLetter, boolean proseList,
            boolean definition) {
        if (definition) {
            return false;
        }
        return linkChars * 5 >= textChars * 4 && textChars < SHORT && !proseList
                || textChars < NUMBER && !wroteLetter;
    }
}
