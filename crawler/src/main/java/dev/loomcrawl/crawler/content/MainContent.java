package dev.loomcrawl.crawler.content;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.PageContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
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
    /** A heading shorter than this that a page's title holds is a section's name ("News"), not the article's title. */
    private static final int HEADLINE = 15;
    /** A section's number before its heading ("5.4.3 ", "A.2 "), which the page's {@code <title>} leaves out. */
    private static final Pattern NUMBER = Pattern.compile("^(?:\\d+(?:\\.\\d+)*|[a-z](?:\\.\\d+)+)\\.?\\s+");

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
        BlockCounts counts = new BlockCounts();
        return choose(body, counts, markdown);
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
        private int length;

        Picked(Element body, BlockCounts counts, Reading reading, boolean markdown) {
            this.body = body;
            this.counts = counts;
            this.boilerplate = new Boilerplate(body, counts, reading.byWords);
            this.blocks = Election.pick(body, boilerplate, counts, reading.weighed);
            MarkdownWriter writer = new MarkdownWriter(markdown, boilerplate, counts);
            this.written = write(writer);
            this.words = writer.paragraphChars();
            this.length = markdown ? -1 : written.length();
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
                length = write(new MarkdownWriter(false, boilerplate, counts)).length();
            }
            return length;
        }

        private String write(MarkdownWriter writer) {
            String text = writer.write(blocks);
            if (writer.wroteH1()) {
                return text;
            }
            if (candidates == null) {
                candidates = headlines(body, blocks);
            }
            for (Element headline : candidates) { // the first that is not all a link
                String line = writer.heading(headline);
                if (!line.isEmpty()) {
                    String begun = MarkdownTitle.begunWith(text, line, writer.markdown());
                    if (begun != null) {
                        return begun;
                    }
                    if (blocks.stream().anyMatch(b -> within(b, headline))
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
                lead = lead(headline, blocks.get(0), body);
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

    /**
     * The article's lead (standfirst, intro, summary), when its header holds one beside the title and the chosen
     * blocks do not: the first element between the headline and the first block whose class or id says so and
     * that holds a sentence's worth of text, outside navigation, side bars and footers.
     */
    private static @Nullable Element lead(Element headline, Element first, Element body) {
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
     * The article's title when the chosen blocks lack it, best first: the last {@code h1} before the first block's
     * first paragraph (the block's own header, left out with it, may hold the title), outside navigation, side bars
     * and footers that do not hold the blocks, unless the page's {@code <title>} does not hold it and holds an
     * {@code h2} after it (the site's name or the section in the {@code h1}, the article's title in an {@code h2}
     * beside its text); then the last {@code h1}, should the first be all a link. A heading shorter than a headline
     * ("News", "Details") is not the one the title names. A heading inside the first block that the title names is the
     * title, written where it stands: mdBook's page "What Is Ownership?" in an {@code h2}, the book's name in an
     * {@code h1} in its menu bar. An {@code h3} to {@code h6} is a candidate only when the title names it, its
     * section's number aside: Medium's story titles, Texinfo's "5.4.3 JSON data encoding/decoding".
     */
    private static List<Element> headlines(Element body, List<Element> blocks) {
        Element first = blocks.get(0);
        Element end = first.selectFirst("p, li, pre, blockquote, table");
        if (end == null) {
            end = PageFacts.after(first, body);
        }
        // jsoup gives both with white space collapsed and trimmed
        String title = body.ownerDocument() == null ? "" : body.ownerDocument().title().toLowerCase(Locale.ROOT);
        Element h1 = null;
        Element best = null;
        boolean bestNamed = false;
        for (Element e = body; e != null && e != end; e = PageFacts.next(e, body)) {
            if (Headings.is(e) && !asideOf(e, first)) {
                String heading = e.text().toLowerCase(Locale.ROOT);
                if (heading.isEmpty()) {
                    continue;
                }
                boolean named = named(heading, title) || named(NUMBER.matcher(heading).replaceFirst(""), title);
                if (!named && !e.nameIs("h1") && !e.nameIs("h2")) {
                    continue; // a lesser heading is the title only when the page's <title> names it
                }
                if (named && Election.holds(first, e)) {
                    best = e;
                    break;
                }
                if (e.nameIs("h1")) {
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

    /** Whether {@code e} is {@code block} or inside it. */
    private static boolean within(Element block, Element e) {
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

    private static PageContent content(String text, PageFacts facts) {
        return new PageContent(text, facts.lang(), facts.description(), facts.author(), facts.published());
    }
}
