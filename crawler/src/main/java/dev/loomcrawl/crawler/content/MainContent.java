package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.PageContent;
import java.util.ArrayList;
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
     * and id words, then without weighing blocks by them either; the first reading this long wins, else the longest,
     * unless it is longer only by what the words leave out.
     */
    private static final int ENOUGH = 250;
    /**
     * A strict reading this long is taken as it is. A shorter one is compared with the reading that does not leave
     * blocks out by their words: {@link #LEFT_OUT} times as long, that one wins, for the words left the article out
     * with a wrapper named for its side bar, its widgets or its banner ({@code sidebar-wrapper} around the post,
     * Blogger's {@code widget Blog} around every post). Unless the reading that keeps only such wrappers (see
     * {@link Boilerplate.ByWords#BUT_WRAPPERS}) found as much in the same blocks: then it wins, for inside the wrapper
     * it still leaves out the post's footer, its newsletter box and its pictures' credits.
     */
    private static final int SURE = 1_000;
    private static final int LEFT_OUT = 3;

    /**
     * The ways a page is read, in turn: leave blocks out by their class and id words and weigh blocks by them; weigh
     * only (and, when that finds the article, the first again keeping the wrappers); neither.
     */
    private enum Reading {
        STRICT(Boilerplate.ByWords.YES, true), WEIGHED(Boilerplate.ByWords.NO, true),
        WRAPPED(Boilerplate.ByWords.BUT_WRAPPERS, true), BY_TAGS(Boilerplate.ByWords.NO, false);

        final Boilerplate.ByWords byWords;
        final boolean weighed;

        Reading(Boilerplate.ByWords byWords, boolean weighed) {
            this.byWords = byWords;
            this.weighed = weighed;
        }
    }

    /**
     * @param content the page's content and facts; its text empty when none was found
     * @param problem why the text is empty, in words for the row's {@code detail}; null when it is not
     */
    public record Extracted(PageContent content, @Nullable String problem) {}

    private MainContent() {}

    /** No content, for the reason given: the page's own facts are not read either. */
    public static Extracted withheld(String problem) {
        return new Extracted(PageContent.EMPTY, problem);
    }

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
        return choose(body, new BlockCounts(body), markdown);
    }

    /** Whether {@code other} found what the strict reading left out: see {@link #SURE}. */
    private static boolean foundWhatStrictLeftOut(Picked other, Picked strict) {
        return other.length() >= ENOUGH && other.length() >= LEFT_OUT * strict.length();
    }

    /**
     * The readings in turn, as {@link Reading} says. When the strict one finds no paragraph (a title at most), the
     * page may be a heading and lists of links ({@link ContentsPage}): read so, before the readings that keep what the
     * class words leave out, which would elect its footer, the only prose left on such a page.
     */
    private static String choose(Element body, BlockCounts counts, boolean markdown) {
        Picked strict = new Picked(body, counts, Reading.STRICT, markdown);
        if (strict.atLeast(SURE)) {
            return strict.written;
        }
        if (strict.words == 0) {
            String contents = ContentsPage.of(body, strict.boilerplate, counts, markdown);
            if (!contents.isEmpty()) {
                return contents;
            }
        }
        Picked weighed = new Picked(body, counts, Reading.WEIGHED, markdown);
        if (foundWhatStrictLeftOut(weighed, strict)) {
            Picked wrapped = new Picked(body, counts, Reading.WRAPPED, markdown);
            boolean same = foundWhatStrictLeftOut(wrapped, strict) && wrapped.blocks.equals(weighed.blocks);
            return same ? wrapped.written : weighed.written;
        }
        if (strict.length() >= ENOUGH) {
            return strict.written;
        }
        Picked other = weighed;
        if (weighed.length() < ENOUGH) {
            Picked byTags = new Picked(body, counts, Reading.BY_TAGS, markdown);
            other = byTags.length() > weighed.length() ? byTags : weighed;
        }
        // a reading longer only by what the strict one's words leave out (a side bar's settings) is no better
        boolean more = other.length() > strict.length()
                && (strict.words == 0 || other.wordsLeaving(strict) > strict.words);
        return (more ? other : strict).written;
    }

    /**
     * The blocks one reading picked, written in the form asked for, and the length of their plain text, which the
     * choice between readings weighs. Markdown's text is written for its length only when the words Markdown holds
     * do not settle the choice: most pages' first reading is long enough by its words alone.
     */
    private static final class Picked {
        private final Element body;
        private final BlockCounts counts;
        private final Boilerplate boilerplate;
        private final List<Element> blocks;
        /** The title's candidates, looked for once, whether Markdown and then text are written or text alone. */
        private @Nullable List<Element> candidates;
        /** The lead beside the title, looked for once. */
        private @Nullable Element lead;
        private boolean leadSought;
        final String written;
        /** The plain text's length at least: the characters other than spaces its paragraphs hold. */
        private final int words;
        /**
         * The blocks' plain text's length (-1: not yet written as text), without the title put before them: a title
         * is no content a reading found, and it would pass a reading's few words for {@link #ENOUGH}.
         */
        private int length = -1;

        Picked(Element body, BlockCounts counts, Reading reading, boolean markdown) {
            this.body = body;
            this.counts = counts;
            this.boilerplate = new Boilerplate(body, counts, reading.byWords);
            this.blocks = Election.pick(body, boilerplate, counts, reading.weighed);
            MarkdownWriter writer = new MarkdownWriter(markdown, boilerplate, counts);
            this.written = write(writer);
            this.words = writer.paragraphChars();
        }

        /** The words this reading's blocks hold when what {@code other} leaves out is left out of them too. */
        int wordsLeaving(Picked other) {
            MarkdownWriter writer = new MarkdownWriter(false, other.boilerplate, counts);
            writer.write(blocks);
            return writer.paragraphChars();
        }

        boolean atLeast(int chars) {
            return words >= chars || length() >= chars;
        }

        int length() {
            if (length < 0) {
                write(new MarkdownWriter(false, boilerplate, counts));
            }
            return length;
        }

        private String write(MarkdownWriter writer) {
            String text = writer.write(blocks);
            if (!writer.markdown()) {
                length = text.length();
            }
            if (writer.wroteH1()) {
                return text;
            }
            if (candidates == null) {
                candidates = Headlines.of(body, blocks, boilerplate);
            }
            for (Element headline : candidates) { // the first that is not all a link
                String line = writer.heading(headline);
                if (!line.isEmpty()) {
                    String begun = MarkdownTitle.begunWith(text, line, writer.markdown());
                    if (begun != null) {
                        return begun;
                    }
                    if (blocks.stream().anyMatch(b -> Headlines.within(b, headline))
                            && ("\n" + text + "\n").contains("\n" + line + "\n")) {
                        return text; // written where it stands, after a photo and its caption
                    }
                    return titled(writer, MarkdownTitle.of(line, writer.markdown()), headline, text);
                }
            }
            return text;
        }

        /** The title line put first, the article's lead after it if its header has one, then the blocks. */
        private String titled(MarkdownWriter writer, String title, Element headline, String text) {
            List<String> parts = new ArrayList<>(3);
            parts.add(title);
            if (!leadSought) {
                lead = Headlines.lead(headline, blocks.get(0), body);
                leadSought = true;
            }
            String leadText = lead == null ? "" : writer.lead(lead);
            if (!leadText.isEmpty()) {
                parts.add(leadText);
            }
            if (!text.isEmpty()) {
                parts.add(text);
            }
            return String.join("\n\n", parts);
        }
    }

    private static PageContent content(String text, PageFacts facts) {
        return new PageContent(text, facts.lang(), facts.description(), facts.author(), facts.published());
    }
}
