package dev.loomcrawl.crawler.politeness;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRule;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A long robots.txt's rules by the text a path must start with to match each, so that a URL is matched against
 * the few rules that can match it, not all of them. crawler-commons tries every rule on every URL: a robots.txt
 * of 30,000 rules (500 KiB, which RFC 9309 has crawlers read) took a millisecond a URL, and a crawl asks about a URL
 * when it is found and again as it is sent (the audit): 2,000 pages of such a host took 38 s and 43 CPU-s, where a
 * short robots.txt takes 14 s and 3.
 *
 * <p>The decision stays crawler-commons': the rules that can match go to a {@link SimpleRobotRules} of their own,
 * which decides as it would with all of them (the longest match wins, an allow on a tie, in any order). A rule
 * can match only a path that starts with its literal text up to its first {@code *} (without an end's {@code $};
 * for a rule ending in {@code index.htm} or {@code index.html}, which also matches its directory, up to there).
 * Rules are kept under the first 1, 2, 4 ... 64 characters of that text, as many as it has, so a path finds them
 * in seven lookups.
 *
 * <p>A rule whose wildcard comes first ({@code /*.pdf$}, {@code /*?sessionid=}) may match a path anywhere, but only
 * a path that contains each piece of literal text between its wildcards: such rules are kept under the first
 * characters (up to {@value #PIECE_KEY}) of their longest piece, and a path finds them by looking up its own
 * substrings of those lengths: 17,000 rules of the form {@code /*a*b*c*d*e*f*123} take the library 2 ms a URL, and
 * a URL meets the few whose number it contains. When looking up every substring of a long path would cost more
 * than asking the rules themselves, they are all asked.
 */
final class RobotsIndex {
    /** Fewer rules than this are matched by the library alone: its loop over them is as quick. */
    static final int INDEXED = 64;
    private static final int LONGEST_KEY = 64;
    /** The longest key of a rule by its piece: each length costs a path a lookup per character. */
    private static final int PIECE_KEY = 4;
    /** The characters crawler-commons escapes in a path before matching it ({@code specialCharactersPathMatching}). */
    private static final boolean[] ESCAPED = new boolean[128];

    static {
        ESCAPED['*'] = true;
        ESCAPED['$'] = true;
    }

    private record Indexed(String start, RobotRule rule) {}

    private final SimpleRobotRules all;
    private final int size;
    private final Map<String, List<Indexed>> byStart = new HashMap<>();
    /** Rules with a wildcard first (after the path's {@code /}), by the first characters of their longest piece. */
    private final Map<String, List<RobotRule>> byPiece = new HashMap<>();
    private int piecesIndexed;
    /** Rules that may match any path: empty, or no literal text after their wildcard ({@code /*}, {@code *$}). */
    private final List<RobotRule> anywhere = new ArrayList<>();

    private RobotsIndex(SimpleRobotRules all) {
        this.all = all;
        List<RobotRule> rules = all.getRobotRules();
        this.size = rules.size();
        for (RobotRule rule : rules) {
            String start = start(rule.getPrefix());
            if (start.length() <= 1) { // "" or "/": every path starts with them
                String piece = longestPiece(rule.getPrefix());
                if (piece.isEmpty()) {
                    anywhere.add(rule);
                } else {
                    byPiece.computeIfAbsent(piece.substring(0, Math.min(piece.length(), PIECE_KEY)),
                            k -> new ArrayList<>()).add(rule);
                    piecesIndexed++;
                }
            } else {
                byStart.computeIfAbsent(start.substring(0, key(start.length())), k -> new ArrayList<>())
                        .add(new Indexed(start, rule));
            }
        }
    }

    /**
     * The index of {@code rules}; null when they are few enough to be matched as they are, or when most of them may
     * match any path.
     */
    static @Nullable RobotsIndex of(BaseRobotRules rules) {
        if (!(rules instanceof SimpleRobotRules simple) || simple.isAllowAll() || simple.isAllowNone()
                || simple.getRobotRules().size() < INDEXED) {
            return null;
        }
        RobotsIndex index = new RobotsIndex(simple);
        return index.anywhere.size() * 2 > index.size ? null : index;
    }

    boolean allows(URL url) {
        String path = url.getPath().isEmpty() ? "/" : url.getPath();
        if (url.getQuery() != null) {
            path += "?" + url.getQuery();
        }
        path = SimpleRobotRules.escapePath(path, ESCAPED); // as crawler-commons matches it
        List<RobotRule> mayMatch = new ArrayList<>(anywhere);
        addByPiece(path, mayMatch);
        for (int length = 1; length <= Math.min(path.length(), LONGEST_KEY); length *= 2) {
            for (Indexed r : byStart.getOrDefault(path.substring(0, length), List.of())) {
                if (path.startsWith(r.start())) {
                    mayMatch.add(r.rule());
                }
            }
        }
        if (mayMatch.size() * 2 > size) {
            return all.isAllowed(url);
        }
        SimpleRobotRules few = new SimpleRobotRules();
        for (RobotRule rule : mayMatch) {
            few.addRule(rule.getPrefix(), rule.isAllow());
        }
        return few.isAllowed(url);
    }

    /** Adds the rules whose longest piece's key {@code path} contains (each rule once). */
    private void addByPiece(String path, List<RobotRule> mayMatch) {
        if (byPiece.isEmpty()) {
            return;
        }
        if ((long) path.length() * PIECE_KEY > piecesIndexed) { // more lookups than rules: ask them all
            byPiece.values().forEach(mayMatch::addAll);
            return;
        }
        Set<String> found = new HashSet<>();
        for (int at = 0; at < path.length(); at++) {
            for (int end = at + 1; end <= Math.min(path.length(), at + PIECE_KEY); end++) {
                String key = path.substring(at, end);
                List<RobotRule> rules = byPiece.get(key);
                if (rules != null && found.add(key)) {
                    mayMatch.addAll(rules);
                }
            }
        }
    }

    /**
     * The longest literal text between a rule's wildcards, after its first one: a path it matches contains it (in
     * the form the rule takes for its directory, when it ends in {@code index.htm} or {@code index.html}).
     */
    static String longestPiece(String prefix) {
        String pattern = pattern(prefix);
        String longest = "";
        int wildcard = pattern.indexOf('*');
        while (wildcard >= 0) {
            int next = pattern.indexOf('*', wildcard + 1);
            String piece = pattern.substring(wildcard + 1, next < 0 ? pattern.length() : next);
            if (piece.length() > longest.length()) {
                longest = piece;
            }
            wildcard = next;
        }
        return longest;
    }

    /** The text every path a rule matches starts with. */
    static String start(String prefix) {
        String pattern = pattern(prefix);
        int wildcard = pattern.indexOf('*');
        return wildcard >= 0 ? pattern.substring(0, wildcard) : pattern;
    }

    /**
     * What a path must match for a rule to match it, without the end's {@code $}: a rule ending in {@code index.htm}
     * or {@code index.html} matches its directory too, so only up to there.
     */
    private static String pattern(String prefix) {
        String pattern = prefix;
        if (pattern.endsWith("index.htm") || pattern.endsWith("index.html")) {
            pattern = pattern.substring(0, pattern.indexOf("index.htm"));
        }
        return pattern.endsWith("$") ? pattern.substring(0, pattern.length() - 1) : pattern;
    }

    /** The length of a start's key: the largest power of two within it, at most {@value #LONGEST_KEY}. */
    private static int key(int length) {
        return Integer.highestOneBit(Math.min(length, LONGEST_KEY));
    }
}
