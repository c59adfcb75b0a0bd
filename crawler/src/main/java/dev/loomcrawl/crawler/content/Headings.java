package dev.loomcrawl.crawler.content;

import java.util.Set;
import org.jsoup.nodes.Element;

/** HTML's headings, {@code h1} to {@code h6}: one test of what a heading is, for every rule that asks. */
final class Headings {
    /** The headings as a CSS selector. */
    static final String SELECTOR = "h1, h2, h3, h4, h5, h6";

    /** Elements that may wrap a block's opening heading: see {@link #open}. */
    private static final Set<String> WRAPPERS = Set.of("section", "article", "div", "header", "hgroup");

    private Headings() {}

    /**
     * Whether {@code e} is a page's title set as no heading: Doxygen's {@code div.title} in {@code div.headertitle}
     * ("Json::Value Class Reference"), the {@code h1} of every page it writes to its reader.
     */
    static boolean isTitle(Element e) {
        Element parent = e.parent();
        return e.nameIs("div") && e.hasClass("title") && parent != null && parent.hasClass("headertitle");
    }

    static boolean is(Element e) {
        String name = e.normalName();
        return name.length() == 2 && name.charAt(0) == 'h' && name.charAt(1) >= '1' && name.charAt(1) <= '6';
    }

    /**
     * A heading's level, 1 to 6, as its reader sees it: a Doxygen member's title ({@code h2.memtitle},
     * "◆ ssh_init()") one below its group's ("Function Documentation"), an {@code h2} too, which a heading of its
     * level right after it would leave with nothing under it.
     */
    static int level(Element heading) {
        int level = heading.normalName().charAt(1) - '0';
        return heading.hasClass("memtitle") ? Math.min(6, level + 1) : level;
    }

    /**
     * Whether a block opens with a heading, maybe inside wrappers of its own (DocBook's {@code div.titlepage} of three
     * {@code div}s, a {@code header} or {@code hgroup}).
     */
    static boolean open(Element block) {
        Element first = block.firstElementChild();
        while (first != null && WRAPPERS.contains(first.normalName())) {
            first = first.firstElementChild();
        }
        return first != null && is(first);
    }
}
