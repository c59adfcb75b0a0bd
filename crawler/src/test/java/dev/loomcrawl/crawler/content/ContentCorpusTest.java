package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.PageContent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Main content against the corpus's marked text (crawler/src/test/resources/content-corpus, written by
 * scripts/content-corpus/make.py): pages in the shapes of seventeen kinds of site, each with the text a careful
 * reader marks as its main content. Scored by tokens, as trafilatura's and Readability's evaluations score.
 * The {@code heldout-} pages were written after the extractor's rules were fixed, and never tuned on.
 */
class ContentCorpusTest {
    static final List<String> PAGES = List.of("wordpress-news", "wordpress-recipe", "news-divsoup", "news-split",
            "medium-essay", "medium-tech", "mkdocs-guide", "sphinx-reference", "phpbb-forum", "qa-site", "wiki-article",
            "gov-press", "hugo-blog", "megamenu-short", "changelog", "regional-de", "devto-tutorial",
            "heldout-ghost", "heldout-substack", "heldout-kb", "heldout-discourse", "heldout-textblocks", "heldout-readme");
    private static final ContentRequest MARKDOWN = new ContentRequest(ContentFormat.MARKDOWN, 1_000_000);
    private static final ContentRequest TEXT = new ContentRequest(ContentFormat.TEXT, 1_000_000);

    @Test
    void theCorpusMainTextIsFoundWithAMeanF1OfAtLeast95PercentAndNoPageUnder85() throws IOException {
        List<Score> scores = new ArrayList<>();
        StringBuilder table = new StringBuilder("page                 precision recall  F1\n");
        for (String page : PAGES) {
            PageContent text = MainContent.of(document(page), TEXT).content();
            Score s = Score.of(Tokens.of(text.text()), Tokens.of(resource(page + ".txt")));
            scores.add(s);
            table.append(String.format(Locale.ROOT, "%-20s %9.3f %6.3f %5.3f%n", page, s.precision(), s.recall(), s.f1()));
        }
        Score mean = Score.mean(scores);
        Score heldOut = Score.mean(scores.subList(PAGES.indexOf("heldout-ghost"), PAGES.size()));
        table.append(String.format(Locale.ROOT, "%-20s %9.3f %6.3f %5.3f%n", "mean", mean.precision(), mean.recall(),
                mean.f1()));
        table.append(String.format(Locale.ROOT, "%-20s %9.3f %6.3f %5.3f%n", "mean of heldout-", heldOut.precision(),
                heldOut.recall(), heldOut.f1()));
        System.out.print(table);
        assertThat(mean.f1()).as(table.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(scores).as(table.toString()).allSatisfy(s -> assertThat(s.f1()).isGreaterThanOrEqualTo(0.85));
    }

    /**
     * The Markdown as CommonMark's own parser reads it shows what the text form has, character for character but
     * for white space: no mark shown as an asterisk, no escape left showing, no word lost.
     */
    @Test
    void markdownAndTextHoldTheSameText() throws IOException {
        for (String page : PAGES) {
            Document doc = document(page);
            String markdown = MainContent.of(doc, MARKDOWN).content().text();
            String text = MainContent.of(doc, TEXT).content().text();
            assertThat(List.of(CommonMarkReading.of(markdown).text().strip().split("\\s+"))).as(page)
                    .isEqualTo(List.of(text.strip().split("\\s+")));
        }
    }

    @Test
    void thePagesFactsAreRead() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String page : PAGES) {
            JsonNode expected = json.readTree(resource(page + ".json"));
            PageContent c = MainContent.of(document(page), TEXT).content();
            assertThat(c.lang()).as(page).isEqualTo(expected.get("lang").asText());
            assertThat(c.author()).as(page).isEqualTo(expected.get("author").isNull() ? null : expected.get("author").asText());
            assertThat(c.published()).as(page)
                    .isEqualTo(expected.get("published").isNull() ? null : expected.get("published").asText());
            assertThat(c.description()).as(page)
                    .isEqualTo(expected.get("description").isNull() ? null : expected.get("description").asText());
        }
    }

    static Document document(String page) throws IOException {
        return Jsoup.parse(resource(page + ".html"), "http://corpus.test/" + page);
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ContentCorpusTest.class.getResourceAsStream("/content-corpus/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Precision, recall and F1 of found tokens against marked ones, counted as bags (a word twice counts twice). */
    record Score(double precision, double recall, double f1) {
        static Score of(List<String> found, List<String> marked) {
            java.util.Map<String, Integer> left = new java.util.HashMap<>();
            marked.forEach(t -> left.merge(t, 1, Integer::sum));
            int common = 0;
            for (String t : found) {
                Integer n = left.get(t);
                if (n != null && n > 0) {
                    left.put(t, n - 1);
                    common++;
                }
            }
            double p = found.isEmpty() ? 0 : (double) common / found.size();
            double r = marked.isEmpty() ? 0 : (double) common / marked.size();
            return new Score(p, r, p + r == 0 ? 0 : 2 * p * r / (p + r));
        }

        static Score mean(List<Score> scores) {
            return new Score(scores.stream().mapToDouble(Score::precision).average().orElse(0),
                    scores.stream().mapToDouble(Score::recall).average().orElse(0),
                    scores.stream().mapToDouble(Score::f1).average().orElse(0));
        }
    }

    /** Words and numbers, lower case, in order. */
    static final class Tokens {
        private static final java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("[\\p{L}\\p{N}]+");

        static List<String> of(String text) {
            List<String> tokens = new ArrayList<>();
            java.util.regex.Matcher m = WORD.matcher(text);
            while (m.find()) {
                tokens.add(m.group().toLowerCase(Locale.ROOT));
            }
            return tokens;
        }
    }
}
