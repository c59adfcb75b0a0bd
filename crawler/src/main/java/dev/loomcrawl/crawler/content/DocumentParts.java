package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiPredicate;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * A document read whole when the block {@link Election} elected is one of its parts: a reference page spreads its
 * prose over sections, summaries and members, none of which is the page, and Readability's scores elect the part with
 * the most paragraphs, or a table it scores cell by cell. Five shapes, tried in turn: sibling sections of one class
 * each headed (DocBook's {@code refsect1}s), headings each followed by its block (rustdoc), a description beside
 * tables of its members' declarations and a table summing up such headed parts (Doxygen), and the parts of a
 * {@code <main>} (Javadoc); and a listing's introduction.
 */
final class DocumentParts {
    /** Sibling sections of one class, each headed, that make a document of sections: see {@link #sectionsHolding}. */
    private static final int SECTIONS = 3;
    /**
     * See {@link #mainOfParts}. A half: a Javadoc class page with a long description (WeakHashMap) elects the
     * description, over a quarter of its {@code <main>}; at a quarter 8 of java.util's 132 pages lost their summaries
     * and details, at a half 2. Whole {@code <main>}s always: GitLab's blog brought in its teasers (Readability's
     * gitlab-blog 0.995 to 0.946), trafilatura's F1 0.918 to 0.917.
     */
    private static final double MAIN_SHARE = 0.5;
    /** How far above the best a section around it may lie. */
    private static final int LEVELS = 6;
    /** Prose enough to open a page, not its signature or byline: see {@link #introduction}. */
    private static final int INTRODUCTION = 80;
    /** A block with more link text than this share is no prose. */
    private static final double LINKS = 0.3;

    private final Boilerplate boilerplate;
    private final BlockCounts counts;

    DocumentParts(Boilerplate boilerplate, BlockCounts counts) {
        this.boilerplate = boilerplate;
        this.counts = counts;
    }

    /** The document {@code top} is a part of, or {@code top}. */
    Element whole(Element top, Element body) {
        return mainOfParts(tableOfParts(summariesBeside(headedPartsHolding(sectionsHolding(top, body), body), body),
                body), body);
    }

    /**
     * A page whose members Doxygen sums up in tables of their declarations ({@code table.memberdecls}: "Classes",
     * "Functions", "Macros", each under its heading) beside the best: the block holding both is the article. A
     * file's or a namespace's page with a description but no member's documentation under it elected the description
     * alone, without the declarations that are what the page documents (79 of 315 such pages of libstdc++'s 700).
     */
    private static Element summariesBeside(Element top, Element body) {
        Element parent = top.parent();
        if (parent == null || parent == body) {
            return top;
        }
        for (Element sibling : parent.children()) {
            if (sibling.nameIs("table") && Declarations.is(sibling)) {
                return parent;
            }
        }
        return top;
    }

    /**
     * A document in headed sections of one tag and class (a reference page's DocBook {@code refsect1}s, a manual's
     * chapters): when the best lies in one of {@link #SECTIONS} or more sibling sections that each begin with a
     * heading and hold prose, their parent is the article. Readability elects the section with the most paragraphs,
     * and PostgreSQL's {@code CREATE TABLE} page kept its parameters alone, not its synopsis and description. And so on
     * up, while the article found is itself one of such sections: Sphinx's changelog of a version kept its first
     * release's sections and none of the releases after it.
     */
    private Element sectionsHolding(Element top, Element body) {
        Element whole = top;
        Element up;
        while ((up = around(whole, body, (section, parent) -> headedProse(section)
                && sectionsIn(parent, section) >= SECTIONS)) != whole) {
            whole = up; // itself one of such sections: a changelog's releases, each of "Bugs fixed", "Features added"
        }
        return whole;
    }

    /**
     * A document whose sections are a heading and the block after it, side by side (rustdoc's "Implementations",
     * "Methods from Deref", "Trait Implementations", each an {@code h2} and a {@code div}): when the best is such a
     * block and its parent holds {@link #SECTIONS} or more headings of its heading's tag, each followed by a block of
     * prose, the parent is the article. Rust's {@code Vec} page kept the methods it borrows from slices alone.
     */
    private Element headedPartsHolding(Element top, Element body) {
        Element heading = top.previousElementSibling();
        Element parent = top.parent();
        if (heading == null || !Headings.is(heading) || parent == null || parent == body) {
            return top;
        }
        return headedParts(parent, heading.normalName()) >= SECTIONS ? parent : top;
    }

    /**
     * A table that sums up the document around it: when the best is mostly a table and a block around it, within
     * {@link #LEVELS}, holds {@link #SECTIONS} or more headings each followed by a block of prose, that block is the
     * article. Readability scores a table cell by cell, and Doxygen's page of a module elected its table of
     * declarations over every member's documentation after it (an {@code h2} and a {@code div.memitem} each).
     */
    private Element tableOfParts(Element top, Element body) {
        return tabular(top) ? around(top, body, (up, parent) -> headedParts(parent, null) >= SECTIONS) : top;
    }

    /**
     * The first block above {@code top}, within {@link #LEVELS} and below the body, that {@code holds} says is the
     * document (given the block below it on the way up, and it); else {@code top}.
     */
    private static Element around(Element top, Element body, BiPredicate<Element, Element> holds) {
        Element up = top;
        for (int level = 0; level <= LEVELS; level++) {
            Element parent = up.parent();
            if (parent == null || parent == body) {
                break;
            }
            if (holds.test(up, parent)) {
                return parent;
            }
            up = parent;
        }
        return top;
    }

    /** The headings in {@code parent} (of {@code tag}, when given) each followed by a block of prose. */
    private int headedParts(Element parent, @Nullable String tag) {
        int parts = 0;
        for (Element e = parent.firstElementChild(); e != null; e = e.nextElementSibling()) {
            Element next = e.nextElementSibling();
            if ((tag == null ? Headings.is(e) : e.normalName().equals(tag)) && next != null && !Headings.is(next)
                    && prose(next)) {
                parts++;
            }
        }
        return parts;
    }

    /**
     * Whether a block is a table's body or holds a table (HTML's, ARIA's, Javadoc's) with half its text or more; not
     * a cell, which is a page's layout as often.
     */
    private boolean tabular(Element top) {
        if (top.nameIs("tbody") || top.nameIs("thead")) {
            return true;
        }
        Element table = top.selectFirst(MarkdownTable.SELECTOR);
        return table != null && counts.chars(table) >= MAIN_SHARE * counts.chars(top);
    }

    /**
     * A page of parts in its {@code <main>}: when the best holds less than {@link #MAIN_SHARE} of the text of the
     * {@code <main>} around it that is not links, and the page marks no {@code <article>} around the best, the
     * {@code <main>} is the article. A reference page spreads its prose over parts none of which is the page: Javadoc's
     * class description, its summaries and each member's details, of which Readability's scores elected the summary
     * table alone. Not inside an {@code <article>}: a blog's {@code <main>} holds the post and its readers' comments.
     */
    private Element mainOfParts(Element top, Element body) {
        Element main = plainMain(top, body);
        if (main == null || counts.linkDensity(main) >= LINKS) {
            return top;
        }
        double inTop = counts.chars(top) * (1 - counts.linkDensity(top));
        double inMain = counts.chars(main) * (1 - counts.linkDensity(main));
        return inTop < MAIN_SHARE * inMain ? main : top;
    }

    /**
     * The prose that opens a {@code <main>} before {@code top}, when {@code top} is mostly a table: a listing's
     * introduction, in the {@code <main>} itself, or its paragraphs in the wrappers around the table (MkDocs' Read the
     * Docs theme puts a page's title, its introduction and its table in one {@code div.section}). A Javadoc package
     * page describes the package, then lists its classes in a table that holds nine tenths of the page's text and is
     * elected. Not before an article's text: there a page's opening
     * blocks were its header again, a photo's caption or the article twice (4 of trafilatura's 990 pages, none better).
     */
    List<Element> introduction(Element top, Element body) {
        Element main = plainMain(top, body);
        if (main == null || !tabular(top)) {
            return List.of();
        }
        List<Element> opening = new ArrayList<>(); // the nearest first, then reversed
        for (Element up = top; up != null && up != main; up = up.parent()) {
            boolean wrapped = up.parent() != main; // inside the part holding the table: paragraphs only
            for (Element e = up.previousElementSibling(); e != null; e = e.previousElementSibling()) {
                if ((!wrapped || e.nameIs("p")) && counts.chars(e) >= INTRODUCTION && counts.linkDensity(e) < LINKS
                        && !boilerplate.leftOut(e) && e.selectFirst("h1") == null) {
                    opening.add(e);
                }
            }
        }
        Collections.reverse(opening);
        return opening;
    }

    /**
     * The {@code <main>} around {@code top}, unless it is {@code top} or the body, or an {@code <article>} marks
     * {@code top}'s own unit: a blog's {@code <main>} holds the post and its readers' comments.
     */
    private static @Nullable Element plainMain(Element top, Element body) {
        Element main = top.closest(Boilerplate.MAIN);
        return main == null || main == top || main == body || top.closest("article") != null ? null : main;
    }

    private int sectionsIn(Element parent, Element section) {
        int sections = 0;
        for (Element sibling : parent.children()) {
            if (sibling.normalName().equals(section.normalName()) && sibling.className().equals(section.className())
                    && headedProse(sibling)) {
                sections++;
            }
        }
        return sections;
    }

    /** A block that begins with a heading and holds text that is mostly not links. */
    private boolean headedProse(Element e) {
        return Headings.open(e) && prose(e);
    }

    /** A block that holds a paragraph's worth of text, mostly not links, and is not left out. */
    private boolean prose(Element e) {
        return counts.chars(e) >= ContentScores.MIN_PARAGRAPH && counts.linkDensity(e) < LINKS
                && !boilerplate.leftOut(e);
    }
}
