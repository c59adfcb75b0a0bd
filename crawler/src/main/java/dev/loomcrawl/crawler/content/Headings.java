package dev.loomcrawl.crawler.content;

import org.jsoup.nodes.Element;

/** HTML's headings, {@code h1} to {@code h6}: one test of what a heading is, for every rule that asks. */
final class Headings {
    /** The headings as a CSS selector. */
    static final String SELECTOR = "h1, h2, h3, h4, h5, h6";

    private Headings() {}

    static boolean is(Element e) {
        String name = e.normalName();
        return name.length() == 2 && name.charAt(0) == 'h' && name.charAt(1) >= '1' && name.charAt(1) <= '6';
    }
}
