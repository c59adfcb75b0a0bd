package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jsoup.nodes.Element;

/**
 * Which blocks of a page are its main content, elected from their {@link ContentScores} as Readability elects them: a
 * block's score, cut by the share of its text that is link text, elects the best; an ancestor it shares with three
 * runners-up, or one whose score rises above it, takes its place, or the document it is a part of
 * ({@link DocumentParts}); the best's siblings of merit join it, and so do other parts of the article in its own tag
 * and class.
 */
final class Election {
    /** When this many runners-up share an ancestor with the best, that ancestor is the article. */
    private static final int RUNNERS_UP = 3;
    /** How far above the best a block of its own class may meet it to be another part of the article. */
    private static final int KIN_LEVELS = 6;
    /** A block of the best's class with more link text than this is a teaser list, not part of the article. */
    private static final double KIN_LINKS = 0.3;
    /** See {@link #mostlyCode}. */
    private static final double CODE = 0.8;

    private final Boilerplate boilerplate;
    private final BlockCounts counts;
    private final List<Element> candidates;
    private final List<Element> loneWrappers;
    /** The candidates' scores, cut by their link text once the best is sought among several. */
    private final Map<Element, Double> scores;

    private Election(Boilerplate boilerplate, BlockCounts counts, ContentScores scored) {
        this.boilerplate = boilerplate;
        this.counts = counts;
        this.candidates = scored.candidates();
        this.loneWrappers = scored.loneWrappers();
        this.scores = scored.scores();
    }

    /**
     * The page's main content: one block, or a block and its siblings of merit, in page order; the body when
     * no paragraph scored.
     *
     * @param boilerplate what this reading leaves out
     * @param counts what the page's blocks hold
     * @param weighed start each block from its class and id words too (Readability's class weight)
     */
    static List<Element> pick(Element body, Boilerplate boilerplate, BlockCounts counts, boolean weighed) {
        return new Election(boilerplate, counts, ContentScores.of(body, boilerplate, counts, weighed)).best(body);
    }

    private List<Element> best(Element body) {
        if (candidates.size() == 1) {
            Element only = candidates.get(0); // nothing to compare it with: its link density would change nothing
            return only == body ? List.of(body) : withSiblings(only);
        }
        Element top = null;
        double topScore = 0;
        for (Element c : candidates) {
            double score = scoreOf(c) * (1 - counts.linkDensity(c));
            scores.put(c, score);
            if (top == null || score > topScore) {
                top = c;
                topScore = score;
            }
        }
        if (top == null || top == body) {
            return List.of(body);
        }
        top = sharedAncestor(top, topScore, body);
        top = risingAncestor(top, body);
        top = aroundTable(top, body);
        top = aroundExample(top, body);
        DocumentParts parts = new DocumentParts(boilerplate, counts);
        top = parts.whole(top, body);
        while (top.parent() != null && top.parent() != body && top.parent().childrenSize() == 1) {
            top = top.parent(); // the only child: its parent holds the same content, and maybe its title
        }
        List<Element> introduction = parts.introduction(top, body);
        List<Element> picked = withKin(top, withSiblings(top), body);
        if (introduction.isEmpty()) {
            return picked;
        }
        List<Element> all = new ArrayList<>(introduction);
        all.addAll(picked);
        return all;
    }

    /**
     * The blocks picked and the other parts of the article in the best's own tag and class ({@link #sameClass}) that
     * are not its siblings: a story in sections of one class, each in wrappers of its own (Drupal's paragraphs,
     * org-mode's {@code outline-text-2}, Elementor's text widgets, The New York Times' {@code story-body-1} and
     * {@code -2}). Readability joins such parts only as siblings; their ancestor would bring in everything between
     * them. Each must have scored (or hold a lone paragraph that scored), meet the best within {@link #KIN_LEVELS}
     * levels and be mostly not links. In page order.
     */
    private List<Element> withKin(Element top, List<Element> picked, Element body) {
        if (top.className().isEmpty()) {
            return picked;
        }
        Set<Element> parts = Collections.newSetFromMap(new IdentityHashMap<>());
        parts.addAll(picked);
        for (List<Element> scored : List.of(candidates, loneWrappers)) {
            for (Element c : scored) {
                if (kin(top, c, body, parts)) {
                    parts.add(c);
                }
            }
        }
        if (parts.size() == picked.size()) {
            return picked;
        }
        List<Element> inOrder = new ArrayList<>(parts.size());
        for (Element e : body.getAllElements()) {
            if (parts.contains(e)) {
                inOrder.add(e);
            }
        }
        return inOrder;
    }

    /** Whether {@code c} is another part of the article beside {@code parts}: see {@link #withKin}. */
    private boolean kin(Element top, Element c, Element body, Set<Element> parts) {
        return c != top && c.normalName().equals(top.normalName()) && sameClass(c, top)
                && counts.linkDensity(c) <= KIN_LINKS && near(top, c, body) && !overlaps(c, parts);
    }

    /**
     * Whether two blocks have one class: the same class names, but for numbered variants of a name both have
     * ({@code story-body story-body-1} and {@code story-body story-body-2}: The New York Times' parts of a story).
     * A grid's {@code col-md-8} and {@code col-md-4} differ: neither has {@code col-md}.
     */
    private static boolean sameClass(Element a, Element b) {
        if (a.className().equals(b.className())) {
            return true;
        }
        return hasDigit(a.className()) && hasDigit(b.className()) && unnumbered(a).equals(unnumbered(b));
    }

    private static boolean hasDigit(String s) {
        return s.chars().anyMatch(Character::isDigit);
    }

    private static Set<String> unnumbered(Element e) {
        Set<String> names = e.classNames();
        Set<String> kept = new HashSet<>();
        for (String name : names) {
            int dash = name.lastIndexOf('-');
            boolean numbered = dash > 0 && dash < name.length() - 1
                    && name.substring(dash + 1).chars().allMatch(Character::isDigit)
                    && names.contains(name.substring(0, dash));
            if (!numbered) {
                kept.add(name);
            }
        }
        return kept;
    }

    /** Whether {@code other} meets {@code top} under the body within {@link #KIN_LEVELS} levels above {@code top}. */
    private static boolean near(Element top, Element other, Element body) {
        Element up = top.parent();
        for (int level = 1; level <= KIN_LEVELS && up != null && up != body; level++, up = up.parent()) {
            if (holds(up, other)) {
                return true;
            }
        }
        return false;
    }

    private static boolean overlaps(Element e, Set<Element> parts) {
        for (Element up = e; up != null; up = up.parent()) {
            if (parts.contains(up)) {
                return true;
            }
        }
        for (Element part : parts) {
            if (holds(e, part)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code ancestor} holds {@code e}, by identity, without a list of {@code e}'s parents. */
    static boolean holds(Element ancestor, Element e) {
        for (Element up = e.parent(); up != null; up = up.parent()) {
            if (up == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** A candidate's score: every candidate has one. */
    private double scoreOf(Element candidate) {
        Double score = scores.get(candidate);
        return score == null ? 0 : score;
    }

    /**
     * Readability: three runners-up within 75% of the best that share an ancestor with it make that ancestor the
     * article.
     */
    private Element sharedAncestor(Element top, double topScore, Element body) {
        Map<Element, Integer> runnersUpUnder = new IdentityHashMap<>();
        int runnersUp = 0;
        for (Element c : candidates) {
            if (c != top && scoreOf(c) >= 0.75 * topScore) {
                runnersUp++;
                for (Element up = c; up != null && up != body; up = up.parent()) {
                    runnersUpUnder.merge(up, 1, Integer::sum);
                }
            }
        }
        if (runnersUp < RUNNERS_UP) {
            return top;
        }
        for (Element up = top.parent(); up != null && up != body; up = up.parent()) {
            if (runnersUpUnder.getOrDefault(up, 0) >= RUNNERS_UP) {
                return up;
            }
        }
        return top;
    }

    /**
     * Readability: an ancestor that scores more than the best, before scores fall under a third, holds more of the
     * article.
     */
    private Element risingAncestor(Element top, Element body) {
        double last = scoreOf(top);
        double threshold = last / 3;
        for (Element up = top.parent(); up != null && up != body; up = up.parent()) {
            Double score = scores.get(up);
            if (score == null) {
                continue;
            }
            if (score < threshold) {
                break;
            }
            if (score > last) {
                return up;
            }
            last = score;
        }
        return top;
    }

    /**
     * The block around a table when a part of the table was elected, if that block scored a third as much: cells of
     * short lines with a comma each (the names under an open letter, "Jane Doe, Yale University") score as
     * paragraphs, their row outscores the letter's paragraphs beside the table, and the letter was left out. A
     * block around a table of data alone scores little: a table's score reaches it divided by its levels.
     */
    private Element aroundTable(Element top, Element body) {
        if (!top.nameIs("tr") && !top.nameIs("tbody") && !top.nameIs("thead") && !top.nameIs("tfoot")) {
            return top;
        }
        Element table = top.closest("table");
        Element around = table == null ? null : table.parent();
        if (around == null || around == body) {
            return top;
        }
        Double score = scores.get(around);
        return score != null && score >= scoreOf(top) / 3 ? around : top;
    }

    /**
     * The block around {@code top} while it is an example or half a definition: an example illustrates the article
     * around it (Texinfo's lines of code, each a {@code pre}, elected it by their commas); a {@code dd} or {@code dt}
     * is half of a pair, its term a function's signature.
     */
    private Element aroundExample(Element top, Element body) {
        Element up = top;
        while ((mostlyCode(up) || up.nameIs("dd") || up.nameIs("dt")) && up.parent() != null
                && up.parent() != body) {
            up = up.parent();
        }
        return up;
    }

    /** A block whose text is {@link #CODE} or more preformatted: code, and its output. */
    private boolean mostlyCode(Element e) {
        int code = 0;
        for (Element pre : e.select("pre")) {
            code += counts.chars(pre);
        }
        return code >= CODE * counts.chars(e);
    }

    private List<Element> withSiblings(Element top) {
        Element parent = top.parent();
        if (parent == null) {
            return List.of(top);
        }
        double topScore = scoreOf(top);
        double threshold = Math.max(10, topScore * 0.2);
        List<Element> kept = new ArrayList<>();
        for (Element sibling : parent.children()) {
            if (sibling == top) {
                kept.add(sibling);
                continue;
            }
            if (boilerplate.leftOut(sibling)) {
                continue;
            }
            boolean topsClass = !top.className().isEmpty() && top.className().equals(sibling.className());
            double bonus = topsClass ? topScore * 0.2 : 0;
            Double score = scores.get(sibling);
            if (score != null && score + bonus >= threshold) {
                kept.add(sibling);
            } else if (score == null && bonus > 0) {
                // A part of the article in the top's own class whose paragraphs lie deeper than the scores reach.
                if (counts.chars(sibling) >= ContentScores.MIN_PARAGRAPH && counts.linkDensity(sibling) < 0.25) {
                    kept.add(sibling);
                }
            } else if (sibling.normalName().equals("p")) {
                int chars = counts.chars(sibling);
                double links = counts.linkDensity(sibling);
                if (chars > 80 && links < 0.25 || chars > 0 && links == 0 && endsASentence(sibling.text())) {
                    kept.add(sibling);
                }
            } else if (!kept.isEmpty() && kept.getLast() == sibling.previousElementSibling()
                    && MarkdownLeftOut.announced(sibling, counts)) {
                kept.add(sibling); // the list a kept paragraph announces: "The full list of modules … is:"
            }
        }
        return kept;
    }

    /** Readability's test for a short paragraph to keep beside the article: it holds a sentence's end. */
    private static boolean endsASentence(String text) {
        return text.endsWith(".") || text.contains(". ");
    }
}
