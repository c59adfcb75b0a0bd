package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jsoup.nodes.Element;

/**
 * Doxygen's tables of a project's parts ({@code class="directory"}): its lists of modules, data structures, files,
 * namespaces and pages and its class hierarchy, each a tree whose rows name their place in it ({@code row_4_0_} under
 * {@code row_4_}), and a class's list of all its members. They are what their pages say, however many links they
 * hold: a box of links to {@link MarkdownLeftOut}, they were left out and their pages read as a title and "Here is a
 * list of all modules:". A tree is written as the nested list it shows, each entry and its description
 * ({@code - [Channel](…): Describes the state of an SSH channel}); a list of members is a table like any other.
 */
final class DirectoryTable {
    /** Drawn beside an entry's name, no word of it: the arrow that folds a branch, the icon of its kind, the indent. */
    private static final String DRAWN = "span.arrow, span.icona, span[style*=width]";

    private DirectoryTable() {}

    /**
     * A directory table, its cells of class {@code entry}, or the box Doxygen sets it in with its control of how deep
     * the tree is shown: a site's own box of class "directory" (its links to other sites) is no such table.
     */
    static boolean is(Element e) {
        if (!e.hasClass("directory")) {
            return false;
        }
        if (e.nameIs("div")) {
            for (Element child : e.children()) {
                if (child.nameIs("table") && is(child)) {
                    return true;
                }
            }
            return false;
        }
        return e.nameIs("table") && e.selectFirst("td.entry") != null;
    }

    /** The control of how deep the tree is shown ("[detail level 1 2 3]"): no content. */
    static boolean levels(Element e) {
        Element parent = e.parent();
        return e.nameIs("div") && e.hasClass("levels") && parent != null && is(parent);
    }

    /** A directory table that lays out a tree: its rows name their place in it. */
    static boolean tree(Element table) {
        if (!is(table) || !table.nameIs("table")) {
            return false;
        }
        Element first = table.selectFirst("tr");
        return first != null && first.id().startsWith("row_");
    }

    /**
     * The tree's entries as a nested list, each under the entry it is in; in text, a line each.
     *
     * @param inline writes a cell's inline content
     * @param mark the items' mark, {@code -} or {@code *}
     */
    static String write(Element table, Function<Element, String> inline, String mark, boolean markdown) {
        List<String> items = new ArrayList<>();
        for (Element row : table.select("tr")) {
            Element entry = row.selectFirst("td.entry");
            if (entry == null) {
                continue;
            }
            Element name = entry.clone();
            name.select(DRAWN).remove();
            String text = inline.apply(name).strip();
            if (text.isEmpty()) {
                continue;
            }
            Element desc = row.selectFirst("td.desc");
            String description = desc == null ? "" : inline.apply(desc).strip();
            String item = description.isEmpty() ? text : text + ": " + description;
            String pad = "  ".repeat(depth(row));
            items.add(markdown ? pad + mark + " " + MarkdownText.indent(item, pad + "  ") : item);
        }
        return String.join("\n", items);
    }

    /** How deep the row is in the tree: {@code row_4_} is at the top, {@code row_4_0_} under it. */
    private static int depth(Element row) {
        int parts = 0;
        for (char c : row.id().toCharArray()) {
            parts += c == '_' ? 1 : 0;
        }
        return Math.max(0, parts - 2);
    }
}
