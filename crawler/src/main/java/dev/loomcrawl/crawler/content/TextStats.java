package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * What the scores ask of a block's text, counted in one walk without building it: its length (white space
 * as the page writes it: the thresholds are coarse, and counting every character instead of the text nodes'
 * lengths cost a tenth of a crawl's CPU), how much of it is inside links, and its commas (Latin, full-width,
 * Arabic and ideographic).
 */
record TextStats(int chars, int linkChars, int commas) {

    static TextStats of(Element e) {
        Counter c = new Counter();
        c.walk(e, false);
        return new TextStats(c.chars, c.linkChars, c.commas);
    }

    /** The share of the text that is link text; 0 for no text. */
    double linkDensity() {
        return chars == 0 ? 0 : (double) linkChars / chars;
    }

    private static final class Counter {
        int chars;
        int linkChars;
        int commas;
        /** A text node's characters, reused: one loop over an array, as C1 compiles it well (see MarkdownWriter#text). */
        private char[] buffer = new char[256];

        void walk(Node node, boolean inLink) {
            for (Node child : node.childNodes()) {
                if (child instanceof TextNode t) {
                    text(t.getWholeText(), inLink);
                } else if (child instanceof Element e) {
                    walk(e, inLink || e.normalName().equals("a"));
                }
            }
        }

        private void text(String s, boolean inLink) {
            int length = s.length();
            if (buffer.length < length) {
                buffer = new char[Math.max(length, 2 * buffer.length)];
            }
            s.getChars(0, length, buffer, 0);
            int found = 0;
            for (int i = 0; i < length; i++) {
                switch (buffer[i]) {
                    case ',', '\uFF0C', '\u060C', '\u3001' -> found++;
                    default -> { }
                }
            }
            chars += length;
            linkChars += inLink ? length : 0;
            commas += found;
        }
    }
}
