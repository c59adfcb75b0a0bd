package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.PageContent;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * A parsed page's main content, in the form asked for, with the page's facts beside it. It reads the
 * document the crawl already parsed and leaves it as it was (links and fields are taken from the same
 * tree), on the parser thread that parsed it.
 */
public final class MainContent {
    /**
     * Content shorter than this is read again, as Readability retries: without leaving blocks out by their class
     * and id words, then without weighing blocks by them either; the first reading this long wins, else the longest.
     */
    private static final int ENOUGH = 250;
    /**
     * A strict reading this long is taken as it is. A shorter one is compared with the reading that does not leave
     * blocks out by their words: {@link #LEFT_OUT} times as long, that one wins, for the words left the article out
     * with a wrapper named for its side bar, its widgets or its banner ({@code sidebar-wrapper} around the post).
     */
    private static final int SURE = 1_000;
    private static final int LEFT_OUT = 3;

    /**
     * The ways a page is read, in turn: leave blocks out by their class and id words and weigh blocks by them;
     * weigh only; neither.
     */
    private enum Reading {
        STRICT(true, true), WEIGHED(false, true), BY_TAGS(false, false);

        final boolean strict;
        final boolean weighed;

        Reading(boolean strict, boolean weighed) {
            this.strict = strict;
            this.weighed = weighed;
        }
    }

    /**
     * @param content the page's content and facts; its text empty when none was found
     * @param problem why the text is empty, in words for the row's {@code detail}; null when it is not
     */
    public record Extracted(PageContent content, @Nullable String problem) {}

    private MainContent() {}

    public static Extracted of(Document doc, ContentRequest request) {
        PageFacts facts;
        try {
            facts = PageFacts.of(doc);
        } catch (RuntimeException e) {
            facts = new PageFacts(null, null, null, null);
        }
        String text;
        try {
            text = text(doc, request.format() == ContentFormat.MARKDOWN);
        } catch (RuntimeException | StackOverflowError e) {
            return new Extracted(content("", facts), "no main content: the extractor failed (" + e + ")");
        }
        if (text.isEmpty()) {
            return new Extracted(content("", facts), "no main content: the page has no text outside navigation and"
                    + " boilerplate");
        }
        return new Extracted(content(text, facts).cut(request.maxChars()), null);
    }

    /**
     * The content in the form asked for. Which reading wins is decided on the plain text of each, so that Markdown and
     * text hold the same content: the marks and link targets Markdown adds would pass a short reading for a long one.
     */
    private static String text(Document doc, boolean markdown) {
        Element body = doc.body();
        if (body == null) {
            return "";
        }
        BlockCounts counts = new BlockCounts();
        Picked chosen = choose(body, counts);
        return markdown ? chosen.write(true) : chosen.text;
    }

    private static Picked choose(Element body, BlockCounts counts) {
        Picked strict = Picked.of(body, counts, Reading.STRICT);
        if (strict.length() >= SURE) {
            return strict;
        }
        Picked weighed = Picked.of(body, counts, Reading.WEIGHED);
        if (weighed.length() >= ENOUGH && weighed.length() >= LEFT_OUT * strict.length()) {
            return weighed; // the class words left the article out with its wrapper
        }
        if (strict.length() >= ENOUGH) {
            return strict;
        }
        if (weighed.length() >= ENOUGH) {
            return weighed;
        }
        Picked byTags = Picked.of(body, counts, Reading.BY_TAGS);
        Picked best = strict.length() >= weighed.length() ? strict : weighed;
        return byTags.length() > best.length() ? byTags : best;
    }

    /** The blocks one reading picked, and their plain text, which the choice between readings weighs. */
    private record Picked(Element body, BlockCounts counts, Boilerplate boilerplate, List<Element> blocks, String text) {
        static Picked of(Element body, BlockCounts counts, Reading reading) {
            Boilerplate boilerplate = new Boilerplate(body, counts, reading.strict);
            List<Element> blocks = ContentScores.pick(body, boilerplate, counts, reading.weighed);
            return new Picked(body, counts, boilerplate, blocks, write(body, counts, boilerplate, blocks, false));
        }

        int length() {
            return text.length();
        }

        String write(boolean markdown) {
            return write(body, counts, boilerplate, blocks, markdown);
        }

        private static String write(Element body, BlockCounts counts, Boilerplate boilerplate, List<Element> blocks,
                boolean markdown) {
            MarkdownWriter writer = new MarkdownWriter(markdown, boilerplate, counts);
            String written = writer.write(blocks);
            Element headline = writer.wroteH1() ? null : headline(body, blocks);
            String heading = headline == null ? "" : writer.heading(headline);
            return heading.isEmpty() ? written : written.isEmpty() ? heading : heading + "\n\n" + written;
        }
    }

    /**
     * The article's title when the chosen blocks lack it: the last {@code h1} before them, outside navigation,
     * side bars and footers (an article's {@code h1} is often in a {@code header} beside its text, and a site's
     * logo may be an earlier {@code h1}).
     */
    private static @Nullable Element headline(Element body, List<Element> blocks) {
        Element first = blocks.get(0);
        Element headline = null;
        for (Element e = body; e != null && e != first; e = PageFacts.next(e, body)) { // page order, to the blocks
            if (e.nameIs("h1") && !e.text().isBlank()
                    && e.closest("nav, aside, footer, [role=navigation], [role=complementary]") == null) {
                headline = e;
            }
        }
        return headline;
    }

    private static PageContent content(String text, PageFacts facts) {
        return new PageContent(text, facts.lang(), facts.description(), facts.author(), facts.published());
    }
}
