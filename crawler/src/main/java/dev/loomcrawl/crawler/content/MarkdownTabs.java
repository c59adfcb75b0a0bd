package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * Tabbed content, as documentation sites show one example for each language or build tool ("Maven", "Gradle"):
 * each tab's name is written before what it shows, and every tab is written, the ones a reader has not opened
 * too (a search engine indexes them all). Names are labels and buttons, left out where a form has them; without
 * them the panels stand unnamed one after another.
 *
 * <p>A tab is an element with ARIA's role {@code tab} (Docusaurus, sphinx-tabs, Bootstrap), or a {@code label}
 * for a radio button (Material for MkDocs, VitePress, sphinx-design: tabs made with CSS alone). The names stand
 * either each before its panel or together in a list followed by the panels.
 */
final class MarkdownTabs {
    /**
     * Tabs' names paired with their panels, in order, and the last sibling of the element asked about that they
     * took: written here, it is not written again.
     */
    record TabSet(List<Element> names, List<Element> panels, Element last) {}

    /**
     * The ids of the page's radio buttons, gathered once when a label first asks: looked up per label, a page of
     * 20,000 labels took 77 s of a parser thread.
     */
    private @Nullable Set<String> radioIds;

    /**
     * The tabs {@code e} names: a tab whose panel is its next sibling (radio buttons aside: Material's classic
     * style, sphinx-design), or a list whose children (radio buttons aside) are two or more tabs, followed by as
     * many panels: as the children of its next sibling (Material's alternate style, VitePress, Docusaurus,
     * Bootstrap) or as its next siblings of role {@code tabpanel} (sphinx-tabs). Null when it names none, and for a
     * {@code nav}: what HTML names navigation is left out whatever it holds (an author box's "About" and "Posts").
     */
    @Nullable TabSet of(Element e) {
        if (tab(e) == e) {
            Element next = e.nextElementSibling();
            while (next != null && radio(next)) {
                next = next.nextElementSibling();
            }
            return next == null || tab(next) != null ? null : new TabSet(List.of(e), List.of(next), next);
        }
        if (e.nameIs("nav")) {
            return null;
        }
        List<Element> names = new ArrayList<>();
        for (Element child : e.children()) {
            Element tab = tab(child);
            if (tab != null) {
                names.add(tab);
            } else if (!radio(child)) {
                return null;
            }
        }
        int n = names.size();
        Element next = e.nextElementSibling();
        if (n < 2 || next == null) {
            return null;
        }
        if (!panel(next)) {
            return next.childrenSize() == n ? new TabSet(names, next.children(), next) : null;
        }
        List<Element> panels = new ArrayList<>(n);
        for (Element panel = next; panel != null && panel(panel) && panels.size() < n;
                panel = panel.nextElementSibling()) {
            panels.add(panel);
        }
        return panels.size() == n ? new TabSet(names, panels, panels.getLast()) : null;
    }

    /** The tab {@code e} is, or holds as its one element (Bootstrap's {@code li} around a tab); else null. */
    private @Nullable Element tab(Element e) {
        if (e.attr("role").equalsIgnoreCase("tab") || e.nameIs("label") && forRadio(e)) {
            return e;
        }
        Element only = e.childrenSize() == 1 ? e.firstElementChild() : null;
        return only != null && only.attr("role").equalsIgnoreCase("tab") ? only : null;
    }

    private static boolean panel(Element e) {
        return e.attr("role").equalsIgnoreCase("tabpanel");
    }

    private boolean forRadio(Element label) {
        String id = label.attr("for");
        Document doc = label.ownerDocument();
        if (id.isEmpty() || doc == null) {
            return false;
        }
        if (radioIds == null) {
            radioIds = new HashSet<>();
            for (Element input : doc.select("input[type=radio][id]")) {
                radioIds.add(input.id());
            }
        }
        return radioIds.contains(id);
    }

    private static boolean radio(Element e) {
        return e.nameIs("input") && e.attr("type").equalsIgnoreCase("radio");
    }
}
