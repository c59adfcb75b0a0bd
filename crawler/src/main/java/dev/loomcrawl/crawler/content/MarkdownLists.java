package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;

/** How a list reads: as items, or as the sections it lays out; and where an ordered one starts. */
final class MarkdownLists {

    private MarkdownLists() {}

    /**
     * A list that lays out sections, each item opening with its heading (Javadoc's summaries and details, a page's
     * chapters): written as the sections, not as items whose text starts with {@code ## Method Summary}.
     */
    static boolean ofSections(Element list) {
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
    static int start(Element ol) {
        try {
            return ol.hasAttr("start") ? Integer.parseInt(ol.attr("start").strip()) : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
