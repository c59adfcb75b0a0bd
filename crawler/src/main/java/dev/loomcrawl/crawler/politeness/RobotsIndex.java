package dev.loomcrawl.crawler.politeness;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRules.RobotRule;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A long robots.txt's rules by the text a path must start with to match each, so that a URL is matched against
 * the few rules that can match it, not all of them. crawler-commons tries every rule on every URL: a robots.txt
 * of 30,000 rules (500 KiB, which RFC 9309 has crawlers read) took a millisecond a URL, and a crawl checks a URL
 * when it is found, when it is leased and when it is sent: 2,000 pages of such a host took 38 s and 43 CPU-s,
 * where a short robots.txt takes 14 s and 3.
 *
 * <p>The decision stays crawler-commons': the rules that can match go to a {@link SimpleRobotRules} of their own,
 * which decides as it would with all of them (the longest match wins, an allow on a tie, in any order). A rule
 * can match only a path that starts with its literal text up to its first {@code *} (without an end's {@code $};
 * for a rule ending in {@code index.htm} or {@code index.html}, which also matches its directory, up to there).
 * Rules are kept under the first 1, 2, 4 ... 64 characters of that text, as many as it has, so a path finds them
 * in seven lookups. When most rules may match a path (a wildcard first in most of them), every rule is asked, by
 * the library: a robots.txt of 17,000 such rules still takes milliseconds a URL.
 */
final class RobotsIndex {
    /** Fewer rules than this are matched by the library alone: its loop over them is as quick. */
    static final int INDEXED = 64;
    private static final int LONGEST_KEY = 64;
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
    /** Rules that may match any path: empty, or a wildcard first (after the path's {@code /}). */
    private final List<RobotRule> anywhere = new ArrayList<>();

    private RobotsIndex(SimpleRobotRules all) {
        this.all = all;
        List<RobotRule> rules = all.getRobotRules();
        this.size = rules.size();
        for (RobotRule rule : rules) {
            String start = start(rule.getPrefix());
            if (start.length() <= 1) { // "" or "/": every path starts with them
                anywhere.add(rule);
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

    /** The text every path a rule matches starts with. */
    static String start(String prefix) {
        String pattern = prefix;
        if (pattern.endsWith("index.htm") || pattern.endsWith("index.html")) {
            pattern = pattern.substring(0, pattern.indexOf("index.htm")); // it matches its directory too
        }
        int wildcard = pattern.indexOf('*');
        if (wildcard >= 0) {
            return pattern.substring(0, wildcard);
        }
        return pattern.endsWith("$") ? pattern.substring(0, pattern.length() - 1) : pattern;
    }

    /** The length of a start's key: the largest power of two within it, at most {@value #LONGEST_KEY}. */
    private static int key(int length) {
        return Integer.highestOneBit(Math.min(length, LONGEST_KEY));
    }
}
