package dev.loomcrawl.crawler.content;

import java.util.Set;
import org.jsoup.nodes.Element;

/** What a link becomes in Markdown: its destination written as CommonMark reads it, or nothing for a permalink. */
final class MarkdownLinks {
    /** What a heading's permalink shows: see {@link #permalink}. */
    private static final Set<String> PERMALINK_MARKS = Set.of("¶", "#", "§", "🔗", "⚓", "◆");

    private MarkdownLinks() {}

    /**
     * A heading's own link, shown as a mark to copy the section's address by ("¶", "#", "§", "🔗", Doxygen's "◆",
     * or nothing a reader sees as a word: an icon, a zero-width space): Sphinx, MkDocs, Docusaurus, VitePress, Hugo,
     * Doxygen and GitHub put one in every heading, and it is no word of the page. A link into the page by any other
     * text (a footnote's "1", "*") stays.
     */
    static boolean permalink(Element a) {
        String href = a.attr("href");
        if (href.length() < 2 || href.charAt(0) != '#') {
            return false;
        }
        StringBuilder shown = new StringBuilder();
        a.text().codePoints().filter(MarkdownLinks::shown).forEach(shown::appendCodePoint);
        return shown.isEmpty() || PERMALINK_MARKS.contains(shown.toString());
    }

    /**
     * A heading's text written as a link to the heading itself ({@code <h2 id="x"><a href="#x">Title</a></h2>}, as
     * mdBook and many blogs set every heading) or to the section it opens (Sphinx's title of a module's page, linked to
     * {@code #module-x} around it): the section's address, not a link away. Written as its text, or the heading would
     * read as a link and be left out with a menu's.
     */
    static boolean toOwnHeading(Element a) {
        String href = a.attr("href");
        if (href.length() < 2 || href.charAt(0) != '#') {
            return false;
        }
        String target = href.substring(1);
        Element heading = a.closest(Headings.SELECTOR);
        Element section = heading == null ? null : heading.parent();
        return heading != null && (target.equals(heading.id()) || target.equals(a.id())
                || target.equals(a.attr("name")) || section != null && target.equals(section.id()));
    }

    /**
     * A character a reader sees as a word's: not white space, a zero-width space or joiner, an emoji's style selector,
     * nor a private use character, which an icon font draws as its icon (Font Awesome's link icon, U+F0C1, in every
     * heading of the Read the Docs theme).
     */
    private static boolean shown(int c) {
        int type = Character.getType(c);
        return !Character.isWhitespace(c) && !Character.isSpaceChar(c) && type != Character.FORMAT
                && type != Character.NON_SPACING_MARK && type != Character.PRIVATE_USE;
    }

    /**
     * A URL as a CommonMark link destination, meaning the same URL: its parentheses as written when they pair up
     * ({@code wiki/Kiwi_(people)}), else each escaped, since one left open ends the link in every reader; a
     * backslash, which would escape what follows it, and an {@code &} that reads as a character reference, escaped.
     */
    static String destination(String href) {
        int depth = 0;
        for (int i = 0; i < href.length() && depth >= 0; i++) {
            char c = href.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        }
        boolean paired = depth == 0;
        StringBuilder d = new StringBuilder(href.length() + 8);
        for (int i = 0; i < href.length(); i++) {
            char c = href.charAt(i);
            if (c == ' ') {
                d.append("%20");
            } else {
                boolean escaped = c == '\\' || !paired && (c == '(' || c == ')')
                        || c == '&' && MarkdownText.entityAt(href, i);
                d.append(escaped ? "\\" : "").append(c);
            }
        }
        return d.toString();
    }
}
