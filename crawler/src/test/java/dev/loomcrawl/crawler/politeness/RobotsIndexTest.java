package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.CrawlUrl;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index decides as crawler-commons does with every rule: held to the library on random robots.txt files of
 * the shapes its matching treats apart (wildcards, first or later, an end's {@code $}, {@code index.html}, escapes,
 * queries, an empty rule, allow against disallow) and URLs made of the same pieces.
 */
class RobotsIndexTest {
    private static final String[] PIECES = {"a", "b", "ab", "x1", "/", "/", "index.html", "index.htm", "*", "%2F", "%41",
            "%e9", "é", "?", "=", "q", "-", ".", "$"};

    @Test
    void decidesAsTheLibraryDoesWithEveryRule() {
        Random random = new Random(20261130);
        int compared = 0;
        int disallowed = 0;
        int indexed = 0;
        for (int file = 0; file < 400; file++) {
            StringBuilder txt = new StringBuilder("User-agent: *\n");
            int rules = 2 * RobotsIndex.INDEXED + random.nextInt(150);
            int wildcardFirst = file % 2 == 0 ? 25 : 2; // one rule in 25 begins with a wildcard, or one in 2
            for (int i = 0; i < rules; i++) {
                String first = random.nextInt(wildcardFirst) != 0 ? "/" : random.nextBoolean() ? "*" : "/*";
                txt.append(random.nextInt(3) == 0 ? "Allow: " : "Disallow: ")
                        .append(random.nextInt(40) == 0 ? "" : path(random, first))
                        .append('\n');
            }
            Robots.Rules parsed = parse(txt);
            RobotsIndex index = parsed.index();
            if (index == null) {
                continue; // the parser found fewer distinct rules than are indexed
            }
            indexed++;
            for (int u = 0; u < 300; u++) {
                if (!(CrawlUrl.check("http://a.test" + path(random, "/")) instanceof CrawlUrl.Check.Ok ok)) {
                    continue;
                }
                URL url = ok.url().toUrl();
                if (url == null) {
                    continue;
                }
                boolean library = parsed.rules().isAllowed(url);
                assertThat(index.allows(url)).as("%s against\n%s", url, txt).isEqualTo(library);
                compared++;
                disallowed += library ? 0 : 1;
            }
        }
        assertThat(indexed).isGreaterThan(350);
        assertThat(compared).isGreaterThan(100_000);
        assertThat(disallowed).as("the files disallow some of the URLs, and allow others")
                .isBetween(compared / 20, compared - compared / 20);
    }

    @Test
    void aLongRobotsTxtIsIndexedAndObeyed() {
        StringBuilder txt = new StringBuilder("User-agent: *\nAllow: /x999/open\n");
        for (int i = 0; i < 1_000; i++) {
            txt.append("Disallow: /x").append(i).append("/\n");
        }
        Robots.Rules rules = parse(txt);
        assertThat(rules.index()).isNotNull();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/x999/page"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/x0/"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/x999/open/1"))).isTrue();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/x1000/"))).isTrue();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/robots.txt"))).isTrue();
    }

    /** 17,000 rules like {@code /*a*b*c*123}: each path meets the few whose characters it has. */
    @Test
    void rulesThatBeginWithAWildcardAreIndexedByTheirCharacters() {
        StringBuilder txt = new StringBuilder("User-agent: *\nAllow: /*open-to-all*\n");
        for (int i = 0; i < 17_000; i++) {
            txt.append("Disallow: /*a*b*c*").append(i).append('\n');
        }
        Robots.Rules rules = parse(txt);
        assertThat(rules.index()).isNotNull();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/abc/16999"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/a/b/c/0"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/a/b/c/open-to-all/7"))).isTrue(); // the allow is longer
        assertThat(rules.allows(CrawlUrl.of("http://a.test/cba/1"))).isTrue();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/page/12345"))).isTrue();
    }

    @Test
    void aRuleThatBeginsWithAWildcardMeetsOnlyPathsThatHaveItsCharacters() {
        long rule = RobotsIndex.characters(RobotsIndex.pattern("/*ab*c$"));
        assertThat(rule & ~RobotsIndex.characters("/x/cab")).isZero();
        assertThat(rule & ~RobotsIndex.characters("/x/ca")).isNotZero();
        assertThat(RobotsIndex.characters(RobotsIndex.pattern("/*/docs/index.html")))
                .isEqualTo(RobotsIndex.characters("/docs")); // it matches /x/docs/ too
    }

    @Test
    void aRuleMayMatchOnlyPathsThatStartWithItsTextBeforeItsFirstWildcard() {
        assertThat(RobotsIndex.start("/private/")).isEqualTo("/private/");
        assertThat(RobotsIndex.start("/a*b")).isEqualTo("/a");
        assertThat(RobotsIndex.start("*.pdf$")).isEmpty();
        assertThat(RobotsIndex.start("/exact$")).isEqualTo("/exact");
        assertThat(RobotsIndex.start("/docs/index.html")).isEqualTo("/docs/"); // it matches /docs/ too
    }

    private static Robots.Rules parse(CharSequence txt) {
        return Robots.parse(CrawlUrl.of("http://a.test/robots.txt"), txt.toString().getBytes(StandardCharsets.UTF_8),
                "text/plain", "loomcrawl");
    }

    private static String path(Random random, String first) {
        List<String> pieces = new ArrayList<>(List.of(first));
        int n = random.nextInt(7);
        for (int i = 0; i < n; i++) {
            pieces.add(PIECES[random.nextInt(PIECES.length)]);
        }
        return String.join("", pieces);
    }
}
