package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * What the scores ask of a block's text, counted in one walk without building it: its length as
 * {@link Element#text()} would give it (runs of white space as one), how much of it is inside links, and its
 * commas (Latin, full-width, Arabic and ideographic).
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
        private boolean space = true;

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
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                boolean white = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\u00A0';
                if (white && space) {
                    continue;
                }
                space = white;
                chars++;
                if (inLink) {
                    linkChars++;
                }
                if (c == ',' || c == '\uFF0C' || c == '\u060C' || c == '\u3001') {
                    commas++;
                }
            }
        }
    }
}
