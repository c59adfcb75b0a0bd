package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * What the scores ask of a block's text, counted in one walk without building it: its length (white space
 * as the page writes it: the thresholds are coarse, and counting every character instead of the text nodes'
 * lengths cost a tenth of a crawl's CPU) and how much of it is inside links. Its commas ({@link #commas}) are
 * a scan of every character, asked only when they can change which block wins.
 */
record TextStats(int chars, int linkChars) {

    static TextStats of(Element e) {
        int[] counts = new int[2];
        walk(e, false, counts);
        return new TextStats(counts[0], counts[1]);
    }

    /** The share of the text that is link text; 0 for no text. */
    double linkDensity() {
        return chars == 0 ? 0 : (double) linkChars / chars;
    }

    private static void walk(Node node, boolean inLink, int[] counts) {
        for (Node child : node.childNodes()) {
            if (child instanceof TextNode t) {
                int length = t.getWholeText().length();
                counts[0] += length;
                counts[1] += inLink ? length : 0;
            } else if (child instanceof Element e) {
                walk(e, inLink || e.normalName().equals("a"), counts);
            }
        }
    }

    /** The commas of a block's text: Latin, full-width, Arabic and ideographic. */
    static int commas(Element e) {
        int found = 0;
        for (Node child : e.childNodes()) {
            if (child instanceof TextNode t) {
                String s = t.getWholeText();
                found += count(s, ',') + count(s, '\uFF0C') + count(s, '\u060C') + count(s, '\u3001');
            } else if (child instanceof Element inner) {
                found += commas(inner);
            }
        }
        return found;
    }

    private static int count(String s, char c) {
        int found = 0;
        for (int i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) {
            found++;
        }
        return found;
    }
}
