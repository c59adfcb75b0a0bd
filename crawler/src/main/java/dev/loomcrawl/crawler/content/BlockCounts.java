package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jspecify.annotations.Nullable;

/**
 * What each block of one page holds, counted once for the page: its text's length (white space inside a text as
 * the page writes it: the thresholds are coarse, and counting every character instead of the text nodes' lengths
 * cost a tenth of a crawl's CPU; but white space alone between tags counts nothing, for a template's indent would
 * make a slide holding one link pass for a paragraph mostly not links), how much of it is inside links, its commas,
 * whether a table lies inside it, and whether it holds the page's {@code <main>} (asked of every reading). A
 * block's counts are its children's added up, remembered, so asking of every block on the way down costs one
 * walk of the page, not one per level: a page nested as deep as the parser allows (512) would otherwise take
 * seconds. Commas are a scan of every character, counted when first asked.
 */
final class BlockCounts {
    private static final int CHARS = 0;
    private static final int LINK_CHARS = 1;
    private static final int TABLES = 2;
    private static final int COMMAS = 3;
    private static final int UNCOUNTED = -1;

    private final Map<Element, int[]> counts = new IdentityHashMap<>();
    private final Element body;
    /** The page's {@code <main>} elements ({@link Boilerplate#MAIN}) and every element above them, found once. */
    private @Nullable Set<Element> holdingMain;

    /** @param body the page's body, whose blocks are counted */
    BlockCounts(Element body) {
        this.body = body;
    }

    int chars(Element e) {
        return of(e)[CHARS];
    }

    /** The share of the text that is link text; 0 for no text. */
    double linkDensity(Element e) {
        int[] c = of(e);
        return c[CHARS] == 0 ? 0 : (double) c[LINK_CHARS] / c[CHARS];
    }

    /** Whether {@code e} is or holds an element that marks the page's main content. */
    boolean holdsMain(Element e) {
        if (holdingMain == null) {
            holdingMain = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Element main : body.select(Boilerplate.MAIN)) {
                Element up = main;
                while (up != null && holdingMain.add(up)) { // an ancestor already in has all above it in too
                    up = up.parent();
                }
            }
        }
        return holdingMain.contains(e);
    }

    /** Whether a {@code table} lies anywhere under {@code e}. */
    boolean holdsTable(Element e) {
        return of(e)[TABLES] > 0;
    }

    /** The commas of a block's text: Latin, full-width, Arabic and ideographic. */
    int commas(Element e) {
        int[] c = of(e);
        if (c[COMMAS] == UNCOUNTED) {
            int found = 0;
            for (Node child : e.childNodes()) {
                if (child instanceof TextNode t) {
                    found += commas(t);
                } else if (child instanceof Element inner) {
                    found += commas(inner);
                }
            }
            c[COMMAS] = found;
        }
        return c[COMMAS];
    }

    /** The text of one run of a paragraph split by line breaks: see {@link #runs}. */
    record Run(int chars, int commas) {}

    /**
     * A paragraph's runs of text between two or more {@code <br>} in a row, which Readability makes paragraphs of
     * their own ({@code replaceBrs}): a post written as one {@code <p>} with blank lines scores as the paragraphs it
     * shows. Empty when the paragraph has no such break.
     */
    List<Run> runs(Element paragraph) {
        if (!hasBlankLine(paragraph)) { // most paragraphs: their commas stay uncounted until asked
            return List.of();
        }
        List<Run> runs = new ArrayList<>();
        int chars = 0;
        int commas = 0;
        int breaks = 0;
        for (Node child : paragraph.childNodes()) {
            if (child instanceof Element br && br.normalName().equals("br")) {
                breaks++;
                continue;
            }
            if (child instanceof TextNode t && t.isBlank()) {
                continue;
            }
            if (breaks >= 2 && chars > 0) {
                runs.add(new Run(chars, commas));
                chars = 0;
                commas = 0;
            }
            breaks = 0;
            if (child instanceof TextNode t) {
                chars += t.getWholeText().length();
                commas += commas(t);
            } else if (child instanceof Element inner) {
                chars += chars(inner);
                commas += commas(inner);
            }
        }
        if (chars > 0) {
            runs.add(new Run(chars, commas));
        }
        return runs.size() > 1 ? runs : List.of();
    }

    /** Whether two {@code <br>} follow one another among a block's children, white space alone between them. */
    private static boolean hasBlankLine(Element block) {
        int breaks = 0;
        for (Node child : block.childNodes()) {
            if (child instanceof Element br && br.normalName().equals("br")) {
                if (++breaks == 2) {
                    return true;
                }
            } else if (!(child instanceof TextNode t && t.isBlank())) {
                breaks = 0;
            }
        }
        return false;
    }

    /** Text directly in {@code e} is not link text, even in an {@code a}: a link is text inside an {@code a} below. */
    private int[] of(Element e) {
        int[] c = counts.get(e);
        if (c != null) {
            return c;
        }
        c = new int[] {0, 0, 0, UNCOUNTED};
        for (Node child : e.childNodes()) {
            if (child instanceof TextNode t) {
                c[CHARS] += t.isBlank() ? 0 : t.getWholeText().length();
            } else if (child instanceof Element inner) {
                int[] i = of(inner);
                c[CHARS] += i[CHARS];
                c[LINK_CHARS] += inner.normalName().equals("a") ? i[CHARS] : i[LINK_CHARS];
                c[TABLES] += i[TABLES] + (inner.normalName().equals("table") ? 1 : 0);
            }
        }
        counts.put(e, c);
        return c;
    }

    private static int commas(TextNode t) {
        String s = t.getWholeText();
        return count(s, ',') + count(s, '\uFF0C') + count(s, '\u060C') + count(s, '\u3001');
    }

    private static int count(String s, char c) {
        int found = 0;
        for (int i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) {
            found++;
        }
        return found;
    }
}
