package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.TextNode;
import org.jspecify.annotations.Nullable;

/**
 * How much of the article each block of a page holds, by Readability's scores (Mozilla's {@code grabArticle}):
 * every paragraph of 25 characters or more scores one point, one per comma and one per hundred characters
 * (three at most), given whole to its parent, half to its grandparent and a third or less to three more
 * ancestors, each starting from its tag and, weighed, its class and id words. Unlike Readability it reads the
 * document without changing it: what Readability removes first, this walk does not enter. {@link Election}
 * elects the article from the scores.
 */
final class ContentScores {
    /** Paragraphs shorter than this are captions, labels and buttons: they score nothing. */
    static final int MIN_PARAGRAPH = 25;
    private static final int ANCESTORS = 5;
    private static final Set<String> PARAGRAPHS = Set.of("p", "pre", "td");
    /** Blocks whose presence makes a {@code div} a container rather than a paragraph of its own. */
    private static final Set<String> BLOCKS = Set.of("address", "article", "aside", "blockquote", "dd", "div", "dl",
            "dt", "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
            "main", "nav", "ol", "p", "pre", "section", "table", "ul");

    private final Boilerplate boilerplate;
    private final BlockCounts counts;
    private final boolean weighed;
    private final Map<Element, Double> scores = new IdentityHashMap<>();
    private final List<Element> candidates = new ArrayList<>();
    /** The paragraphs that scored: their commas are credited once candidates compete. */
    private final List<Scored> paragraphs = new ArrayList<>();
    /** Paragraphs split by blank lines ({@link BlockCounts#runs}): divs of paragraphs, as Readability makes them. */
    private final Set<Element> split = Collections.newSetFromMap(new IdentityHashMap<>());
    /** See {@link #loneWrappers()}. */
    private final List<Element> loneWrappers = new ArrayList<>();

    private ContentScores(Boilerplate boilerplate, BlockCounts counts, boolean weighed) {
        this.boilerplate = boilerplate;
        this.counts = counts;
        this.weighed = weighed;
    }

    /**
     * The scores of a page's blocks.
     *
     * @param boilerplate what this reading leaves out
     * @param counts what the page's blocks hold
     * @param weighed start each block from its class and id words too (Readability's class weight)
     */
    static ContentScores of(Element body, Boilerplate boilerplate, BlockCounts counts, boolean weighed) {
        ContentScores s = new ContentScores(boilerplate, counts, weighed);
        s.score(body);
        if (s.candidates.size() > 1) { // a point a comma, given as the paragraph's other points are
            for (Scored paragraph : s.paragraphs) {
                int commas = paragraph.commas(s.counts);
                if (commas > 0) {
                    s.credit(paragraph.first(), commas);
                }
            }
        }
        return s;
    }

    /** The blocks that scored, in the order they first did. */
    List<Element> candidates() {
        return candidates;
    }

    /** Each candidate's score, before its link text cuts it: a copy to change. */
    Map<Element, Double> scores() {
        return new IdentityHashMap<>(scores);
    }

    /**
     * The divs around a lone paragraph that scored, which Readability replaces by the paragraph: not candidates, but
     * parts of the article when their class is the best's ({@link Election}).
     */
    List<Element> loneWrappers() {
        return loneWrappers;
    }

    private void score(Element parent) {
        for (Element e = parent.firstElementChild(); e != null; e = e.nextElementSibling()) {
            if (boilerplate.leftOut(e)) {
                continue;
            }
            if (isParagraph(e)) {
                List<BlockCounts.Run> runs = counts.runs(e);
                if (runs.isEmpty()) {
                    scoredParagraph(e);
                } else {
                    split.add(e);
                    for (BlockCounts.Run run : runs) {
                        scoredRun(e, run);
                    }
                }
                if (!e.normalName().equals("td")) {
                    continue;
                }
            }
            score(e);
        }
    }

    /**
     * A paragraph that scored: the block its points start at (its parent, or the paragraph itself for a run of it) and
     * its commas, or null to count them in {@code text} when asked.
     */
    private record Scored(@Nullable Element first, Element text, @Nullable Integer commas) {
        int commas(BlockCounts counts) {
            return commas != null ? commas : counts.commas(text);
        }
    }

    private void scoredParagraph(Element paragraph) {
        int chars = counts.chars(paragraph);
        if (chars >= MIN_PARAGRAPH) {
            Element first = firstScored(paragraph);
            credit(first, points(chars));
            paragraphs.add(new Scored(first, paragraph, null));
        }
    }

    /** A run of a paragraph split by blank lines: a paragraph inside it, as Readability makes one. */
    private void scoredRun(Element paragraph, BlockCounts.Run run) {
        if (run.chars() >= MIN_PARAGRAPH) {
            credit(paragraph, points(run.chars()));
            paragraphs.add(new Scored(paragraph, paragraph, run.commas()));
        }
    }

    /** One point, and one per hundred characters, three at most; commas are given later. */
    private static int points(int chars) {
        return 1 + Math.min(chars / 100, 3);
    }

    /**
     * The first block a scoring paragraph's points go to: its parent, or the parent's parent for a div around it alone
     * (remembered as a lone wrapper).
     */
    private @Nullable Element firstScored(Element paragraph) {
        Element up = paragraph.parent();
        if (up != null && up.normalName().equals("div") && up.childrenSize() == 1 && up.textNodes().stream()
                .allMatch(TextNode::isBlank)) {
            loneWrappers.add(up);
            up = up.parent(); // Readability replaces a div around a lone paragraph by the paragraph: one level less
        }
        return up;
    }

    /** Points to {@code first} whole, half to its parent and a third or less to three more ancestors. */
    private void credit(@Nullable Element first, double points) {
        Element up = first;
        // Up to the body, not above: <html> holds nothing the body does not (Readability stops where the document
        // starts).
        for (int level = 0; level < ANCESTORS && up != null && !up.normalName().equals("html");
                level++, up = up.parent()) {
            double share = level == 0 ? points : level == 1 ? points / 2 : points / (level * 3);
            Double had = scores.get(up);
            if (had == null) {
                candidates.add(up);
                had = (double) initial(up);
            }
            scores.put(up, had + share);
        }
    }

    /** A block to score as a paragraph: {@code p}, {@code pre}, {@code td}, or a block with no blocks in it. */
    private static boolean isParagraph(Element e) {
        if (PARAGRAPHS.contains(e.normalName())) {
            return true;
        }
        if (!e.normalName().equals("div") && !e.normalName().equals("section")) {
            return false;
        }
        for (Element child = e.firstElementChild(); child != null; child = child.nextElementSibling()) {
            if (BLOCKS.contains(child.normalName())) {
                return false;
            }
        }
        return true;
    }

    /** Readability's start for a block: by its tag, plus its class weight when weighed. */
    private int initial(Element e) {
        int byTag = switch (split.contains(e) ? "div" : e.normalName()) {
            case "div", "article", "main" -> 5;
            case "pre", "td", "blockquote" -> 3;
            case "address", "ol", "ul", "dl", "dd", "dt", "li", "form" -> -3;
            case "h1", "h2", "h3", "h4", "h5", "h6", "th" -> -5;
            default -> 0;
        };
        return byTag + (weighed ? Boilerplate.weight(e) : 0);
    }
}
