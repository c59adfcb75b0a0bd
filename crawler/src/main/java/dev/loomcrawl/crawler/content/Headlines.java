package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * Where a page's title and lead stand when the blocks a reading chose lack them: its headline, by its tag and by
 * the page's {@code <title>}, and the standfirst beside it ({@link MainContent} puts both before the blocks).
 */
final class Headlines {
    /** A heading shorter than this that a page's title holds is a section's name ("News"), not the article's title. */
    private static final int HEADLINE = 15;
    /** A section's number before its heading ("5.4.3 ", "A.2 "), which the page's {@code <title>} leaves out. */
    private static final Pattern NUMBER = Pattern.compile("^(?:\\d+(?:\\.\\d+)*|[a-z](?:\\.\\d+)+)\\.?\\s+");

    private Headlines() {}

    /**
     * The article's lead (standfirst, intro, summary), when its header holds one beside the title and the chosen
     * blocks do not: the first element between the headline and the first block whose class or id says so and
     * that holds a sentence's worth of text, outside navigation, side bars and footers.
     */
    static @Nullable Element lead(Element headline, Element first, Element body) {
        if (within(first, headline)) {
            return null; // a headline inside the blocks: their own header, written with them
        }
        for (Element e = PageFacts.after(headline, body); e != null && e != first; e = PageFacts.next(e, body)) {
            if (MarkdownTitle.isLead(e) && !Election.holds(e, first) && !asideOf(e, first)) {
                return e;
            }
        }
        return null;
    }

    /**
     * The article's title when the chosen blocks lack it, best first: the last {@code h1} (or Doxygen's title, one to
     * its reader: {@link Headings#isTitle}) before the first block's first paragraph that the reading writes (the
     * block's own header, left out with it, may hold the title), outside navigation, side bars and footers that do
     * not hold the blocks, unless the page's {@code <title>} does not hold it and holds an {@code h2} after it (the
     * site's name or the section in the {@code h1}, the article's title in an {@code h2} beside its text); then the
     * last {@code h1}, should the first be all a link. A heading shorter than a headline
     * ("News", "Details") is not the one the title names. A heading inside the first block that the title names is the
     * title, written where it stands: mdBook's page "What Is Ownership?" in an {@code h2}, the book's name in an
     * {@code h1} in its menu bar. An {@code h3} to {@code h6} is a candidate only when the title names it, its
     * section's number aside: Medium's story titles, Texinfo's "5.4.3 JSON data encoding/decoding".
     */
    static List<Element> of(Element body, List<Element> blocks, Boilerplate boilerplate) {
        Element first = blocks.get(0);
        Element end = firstParagraph(first, boilerplate);
        if (end == null) {
            end = PageFacts.after(first, body);
        }
        // jsoup gives both with white space collapsed and trimmed
        String title = body.ownerDocument() == null ? "" : body.ownerDocument().title().toLowerCase(Locale.ROOT);
        Element h1 = null;
        Element best = null;
        boolean bestNamed = false;
        for (Element e = body; e != null && e != end; e = PageFacts.next(e, body)) {
            boolean isH1 = e.nameIs("h1") || Headings.isTitle(e);
            if ((isH1 || Headings.is(e)) && !asideOf(e, first)) {
                String heading = e.text().toLowerCase(Locale.ROOT);
                if (heading.isEmpty()) {
                    continue;
                }
                boolean named = named(heading, title) || named(NUMBER.matcher(heading).replaceFirst(""), title);
                if (!named && !isH1 && !e.nameIs("h2")) {
                    continue; // a lesser heading is the title only when the page's <title> names it
                }
                if (named && Election.holds(first, e)) {
                    best = e;
                    break;
                }
                if (isH1) {
                    h1 = e;
                    best = e;
                    bestNamed = named;
                } else if (named && !bestNamed) {
                    best = e;
                    bestNamed = true;
                }
            }
        }
        List<Element> headlines = new ArrayList<>(2);
        if (best != null) {
            headlines.add(best);
        }
        if (h1 != null && h1 != best) {
            headlines.add(h1);
        }
        return headlines;
    }

    /**
     * The block's first paragraph that the reading writes: not one in what it leaves out, such as DocBook's bar of
     * links atop a page whose block is its body, before the title.
     */
    private static @Nullable Element firstParagraph(Element block, Boilerplate boilerplate) {
        for (Element p : block.select("p, li, pre, blockquote, table")) {
            if (p.parents().stream().takeWhile(e -> e != block).noneMatch(boilerplate::leftOut)
                    && !boilerplate.leftOut(p)) {
                return p;
            }
        }
        return null;
    }

    /** Whether {@code e} is {@code block} or inside it. */
    static boolean within(Element block, Element e) {
        return block == e || Election.holds(block, e);
    }

    /** Whether the page's {@code <title>} names the heading: holds it, and it is as long as a headline at least. */
    private static boolean named(String heading, String title) {
        return heading.length() >= HEADLINE && title.contains(heading);
    }

    /** Whether a heading is in navigation, a side bar or a footer that does not hold the content's first block. */
    private static boolean asideOf(Element heading, Element first) {
        Element aside = heading.closest("nav, aside, footer, [role=navigation], [role=complementary]");
        return aside != null && aside != first && !first.parents().contains(aside);
    }
}
