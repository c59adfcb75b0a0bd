package dev.loomcrawl.crawler.politeness;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRule;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * a path that holds every character of its literal text: each such rule keeps its characters as the bits of a
 * {@code long} (a character's code modulo 64), and a URL meets only the rules whose bits its path has all, a
 * nanosecond a rule. 17,000 rules of the form {@code /*a*b*c*d*e*f*123}, or of five random letters between
 * wildcards, take the library 2 ms a URL, and 23 µs and 170 µs this way (a path of 20 characters meets a handful
 * of the first and about 140 of the second). Rules of a character or two common to most paths are still asked
 * one by one.
 */
final class RobotsIndex {
    /** Fewer rules than this are matched by the library alone: its loop over them is as quick. */
    static final int INDEXED = 64;
    private static final int LONGEST_KEY = 64;
    private static final long SLASH = characters("/");
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
    /** Rules with a wildcard first (after the path's {@code /}), and the {@link #characters} of each. */
    private final List<RobotRule> wildcardFirst = new ArrayList<>();
    private final long[] wildcardCharacters;

    private RobotsIndex(SimpleRobotRules all) {
        this.all = all;
        List<RobotRule> rules = all.getRobotRules();
        this.size = rules.size();
        long[] characters = new long[rules.size()];
        for (RobotRule rule : rules) {
            String start = start(rule.getPrefix());
            if (start.length() <= 1) { // "" or "/": every path starts with them
                characters[wildcardFirst.size()] = characters(pattern(rule.getPrefix()));
                wildcardFirst.add(rule);
            } else {
                byStart.computeIfAbsent(start.substring(0, key(start.length())), k -> new ArrayList<>())
                        .add(new Indexed(start, rule));
            }
        }
        this.wildcardCharacters = Arrays.copyOf(characters, wildcardFirst.size());
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
        // rules with no literal text but the path's "/" (/*, *$) may match any path
        long anywhere = Arrays.stream(index.wildcardCharacters).filter(c -> (c & ~SLASH) == 0).count();
        return anywhere * 2 > index.size ? null : index;
    }

    boolean allows(URL url) {
        String path = url.getPath().isEmpty() ? "/" : url.getPath();
        if (url.getQuery() != null) {
            path += "?" + url.getQuery();
        }
        path = SimpleRobotRules.escapePath(path, ESCAPED); // as crawler-commons matches it
        List<RobotRule> mayMatch = new ArrayList<>();
        long has = characters(path);
        for (int i = 0; i < wildcardCharacters.length; i++) {
            if ((wildcardCharacters[i] & ~has) == 0) {
                mayMatch.add(wildcardFirst.get(i));
            }
        }
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

    /**
     * The characters of {@code text} but {@code *}, as bits: a character's code modulo 64 (so two characters may share
     * a bit, and a rule meets a path that lacks one of its characters, never misses one that has them all).
     */
    static long characters(String text) {
        long bits = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '*') {
                bits |= 1L << c; // a long's shift takes the low six bits of c
            }
        }
        return bits;
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
    static String pattern(String prefix) {
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
