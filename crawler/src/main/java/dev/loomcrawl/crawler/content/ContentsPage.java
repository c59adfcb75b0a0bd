package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.Element;

/**
 * A page that is a heading and the lists of links under it, maybe with a paragraph or two among them: a manual's
 * chapter that lists its sections (Texinfo's "15 Plotting"), a book's table of contents, DocBook's part of a manual
 * (its introduction, and its table of contents as a definition list). The readings find nothing on it (an item that
 * is all link is navigation to them, and rightly so on a page with an article; DocBook's introduction is in a box of
 * far more links than prose); yet the lists are what the page says, and a search index or a language model that gets
 * nothing cannot tell the page from one the extractor failed on. Read when the strict reading finds no paragraph (see
 * {@code MainContent}).
 */
final class ContentsPage {

    /** A definition list with more link text than this is a list of links. */
    private static final double LINK_TERMS = 0.5;

    private ContentsPage() {}

    /**
     * The page's first heading outside {@code boilerplate} (the strict reading's: by tag, role and words) and the lists
     * and paragraphs after it, up to the next heading of its level or above, each item kept; "" when there is no such
     * heading or no list under it. A heading of its level right after a list opens another section of the same
     * contents: an index whose letters are its headings (Doxygen's lists of all fields, "- a -", "- c -").
     */
    static String of(Element body, Boilerplate boilerplate, BlockCounts counts, boolean markdown) {
        Element heading = null;
        List<Element> blocks = new ArrayList<>(); // the lists and the paragraphs among them
        boolean sections = false;
        Element e = PageFacts.next(body, body);
        while (e != null) {
            if (boilerplate.leftOut(e)) {
                e = PageFacts.after(e, body);
            } else if (Headings.is(e) && heading != null && Headings.level(e) <= Headings.level(heading)) {
                boolean afterList = !blocks.isEmpty() && list(blocks.getLast(), counts);
                if (Headings.level(e) < Headings.level(heading) || !afterList) {
                    break;
                }
                sections = true; // an index, a heading over each letter's list
                blocks.add(e);
                e = PageFacts.after(e, body);
            } else if (Headings.is(e) && heading == null) {
                heading = e;
                e = PageFacts.after(e, body);
            } else if ((list(e, counts) || e.nameIs("p")) && heading != null) {
                blocks.add(e);
                e = PageFacts.after(e, body);
            } else {
                e = PageFacts.next(e, body);
            }
        }
        List<Element> lists = blocks.stream().filter(b -> list(b, counts)).toList();
        if (heading == null || lists.isEmpty() || !mostlyLists(heading, lists, counts)) {
            return "";
        }
        MarkdownWriter writer = new MarkdownWriter(markdown, boilerplate, counts).keepingLinkItems();
        if (sections) {
            blocks.addFirst(heading); // the first of its sections, no title of the page
        }
        String title = sections ? "" : writer.heading(heading);
        String items = writer.write(blocks);
        if (items.isEmpty()) {
            return "";
        }
        return title.isEmpty() ? items : MarkdownTitle.of(title, markdown) + "\n\n" + items;
    }

    /**
     * A list of the contents: {@code ul}, {@code ol}, or a {@code dl} of class toc or mostly links: DocBook's table
     * of contents, TypeDoc's members of a namespace.
     */
    private static boolean list(Element e, BlockCounts counts) {
        return e.nameIs("ul") || e.nameIs("ol")
                || e.nameIs("dl") && (e.hasClass("toc") || counts.linkDensity(e) > LINK_TERMS);
    }

    /**
     * Whether the lists hold half the text, or more, that follows the heading in the block around it and them: a page
     * whose prose its class words left out (TypeDoc's members, each a {@code tsd-signature}) has lists too, a type's
     * parameters. Not the text before the heading: Texinfo's links to the chapters beside it.
     */
    private static boolean mostlyLists(Element heading, List<Element> lists, BlockCounts counts) {
        Element around = heading.parent();
        while (around != null && !holdsAll(around, lists)) {
            around = around.parent();
        }
        if (around == null) {
            return false;
        }
        int after = counts.chars(around) - counts.chars(heading);
        for (Element e = heading; e != null && e != around; e = e.parent()) {
            for (Element sibling = e.previousElementSibling(); sibling != null;
                    sibling = sibling.previousElementSibling()) {
                after -= counts.chars(sibling);
            }
        }
        int inLists = 0;
        for (Element list : lists) {
            inLists += counts.chars(list);
        }
        return 2 * inLists >= after;
    }

    private static boolean holdsAll(Element around, List<Element> lists) {
        for (Element list : lists) {
            if (!Election.holds(around, list)) {
                return false;
            }
        }
        return true;
    }
}
