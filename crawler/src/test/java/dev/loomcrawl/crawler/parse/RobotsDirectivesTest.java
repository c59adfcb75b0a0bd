package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Robots directives as Google documents them: words, for every crawler or for the one a meta or header names. */
class RobotsDirectivesTest {
    private static final RobotsDirectives NOINDEX = new RobotsDirectives(false, true);
    private static final RobotsDirectives NOFOLLOW = new RobotsDirectives(true, false);
    private static final RobotsDirectives BOTH = new RobotsDirectives(true, true);

    @Test
    void directivesAreWordsInAnyCaseAndNoneIsBoth() {
        assertThat(RobotsDirectives.of("NoIndex, nofollow")).isEqualTo(BOTH);
        assertThat(RobotsDirectives.of(" none ")).isEqualTo(BOTH);
        assertThat(RobotsDirectives.of("noindex")).isEqualTo(NOINDEX);
        assertThat(RobotsDirectives.of("max-image-preview:none, max-snippet:-1, noindexing, noarchive"))
                .isEqualTo(RobotsDirectives.NONE);
        assertThat(RobotsDirectives.of(null)).isEqualTo(RobotsDirectives.NONE);
    }

    @Test
    void aMetaSpeaksToThisCrawlerWhenItIsNamedRobotsOrForItsProductToken() {
        assertThat(RobotsDirectives.addresses("ROBOTS", "loomcrawl")).isTrue();
        assertThat(RobotsDirectives.addresses(" LoomCrawl ", "loomcrawl")).isTrue();
        assertThat(RobotsDirectives.addresses("googlebot", "loomcrawl")).isFalse();
        assertThat(RobotsDirectives.addresses("description", "loomcrawl")).isFalse();
    }

    @Test
    void everyXRobotsTagCountsAndOneThatNamesAnotherCrawlerIsItsOwn() {
        assertThat(RobotsDirectives.ofHeaders(List.of("noarchive", "noindex"), "loomcrawl")).isEqualTo(NOINDEX);
        assertThat(RobotsDirectives.ofHeaders(List.of("googlebot: noindex", "otherbot: noindex, nofollow"), "loomcrawl"))
                .isEqualTo(RobotsDirectives.NONE);
        assertThat(RobotsDirectives.ofHeaders(List.of("LOOMCRAWL: noindex"), "loomcrawl")).isEqualTo(NOINDEX);
        // a crawler named in a header speaks up to the next one named; the next header starts for every crawler
        assertThat(RobotsDirectives.ofHeaders(List.of("nofollow, googlebot: noindex"), "loomcrawl")).isEqualTo(NOFOLLOW);
        assertThat(RobotsDirectives.ofHeaders(List.of("googlebot: nofollow, loomcrawl: noindex"), "loomcrawl"))
                .isEqualTo(NOINDEX);
        assertThat(RobotsDirectives.ofHeaders(List.of("googlebot: nofollow", "noindex"), "loomcrawl")).isEqualTo(NOINDEX);
        // a directive that takes a value is no crawler's name
        assertThat(RobotsDirectives.ofHeaders(List.of("unavailable_after: 25 Jun 2010 15:00:00 PST, noindex"),
                "loomcrawl")).isEqualTo(NOINDEX);
        assertThat(RobotsDirectives.ofHeaders(List.of("max-snippet: 20, nofollow"), "loomcrawl")).isEqualTo(NOFOLLOW);
    }
}
