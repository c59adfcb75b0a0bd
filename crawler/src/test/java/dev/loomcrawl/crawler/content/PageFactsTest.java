package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/**
 * What a page says of itself, in the shapes real pages write it (the cases of Readability's own test pages that
 * these rules once missed: {@code 004-metadata-space-separated-properties}, {@code 005-unescape-html-entities},
 * and JSON-LD wrapped in CDATA on aclu, gitlab-blog and wikipedia-2).
 */
class PageFactsTest {
    private static PageFacts facts(String head) {
        return PageFacts.of(Jsoup.parse("<html><head>" + head + "</head><body><p>Text.</p></body></html>", "http://x.test/"));
    }

    @Test
    void jsonLdWrappedInCdataIsRead() {
        PageFacts f = facts("""
                <script type="application/ld+json">
                  <![CDATA[ {"@context": "http://schema.org", "@type": "Article", "author": [{"@type": "Person",
                  "name": "Daniel Kahn Gillmor"}], "datePublished": "2018-04-05T06:00", "description": "Opted out."} ]]>
                </script>""");
        assertThat(f.author()).isEqualTo("Daniel Kahn Gillmor");
        assertThat(f.published()).isEqualTo("2018-04-05T06:00");
        assertThat(f.description()).isEqualTo("Opted out.");
    }

    @Test
    void aPropertyNamingSeveralMetaNamesGivesEachAndDublinCoreIsReadInBothSpellings() {
        PageFacts f = facts("""
                <meta property="dc:creator twitter:site_name" content="Creator Name">
                <meta property="og:description x:description twitter:description" content="A description">
                <meta property="dcterms:issued" content="2024-06-25">""");
        assertThat(f.author()).isEqualTo("Creator Name");
        assertThat(f.description()).isEqualTo("A description");
        assertThat(f.published()).isEqualTo("2024-06-25");
        assertThat(facts("<meta name=\"DC.creator\" content=\"Ann Lee\">").author()).isEqualTo("Ann Lee");
    }

    @Test
    void valuesEscapedTwiceAreReadAsMeant() {
        assertThat(facts("<meta name=\"description\" content=\"That&amp;#039;s Mugabe's &amp;quot;Blue House&amp;quot;\">")
                .description()).isEqualTo("That's Mugabe's \"Blue House\"");
        assertThat(facts("<meta property=\"dc:description og:description\""
                + " content=\"&amp;#xg; &amp;#x1F62D; &amp;#128557; &amp;#xFFFFFFFF; &amp;#x0;\">").description())
                .isEqualTo("&#xg; \uD83D\uDE2D \uD83D\uDE2D \uFFFD \uFFFD");
        assertThat(facts("<meta name=\"author\" content=\"Fish &amp; Chips\">").author()).isEqualTo("Fish & Chips");
    }
}
