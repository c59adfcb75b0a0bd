package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.time.Duration;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pages built to make a reader slow: elements nested as deep as the parser allows (512; it sets the rest side
 * by side at the bottom), each level asking about all it holds, or writing its marks before all it holds. Read
 * on the crawl's parser threads, a few such pages stopped a crawl: the tables here (1.3 MB) took 24 s, the
 * quotes (1 MB) 40 s, and a 2 MB page longer. Counted once per page, and quotes and lists written at most 16
 * deep, each takes well under a second.
 */
class HostilePagesTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            tables in tables         | <table><tr><td> | </td></tr></table> | 40000 | <p>The words of the article, with commas.</p> | 1
            quotes around many lines | <blockquote>    | </blockquote>      | 600   | <p>a line of the quote</p>                     | 40000
            """)
    void aPageNestedAsDeepAsTheParserAllowsIsReadInOneWalk(String shape, String open, String close, int levels,
            String innermost, int times) {
        String html = "<body>" + open.repeat(levels) + innermost.repeat(times) + close.repeat(levels) + "</body>";
        Document doc = Jsoup.parse(html, "https://example.org/");
        MainContent.Extracted read = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> MainContent.of(doc, new ContentRequest(ContentFormat.MARKDOWN, 10_000_000)));
        assertThat(read.content().text()).as(shape).isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            quotes | <blockquote> | </blockquote> | '> '
            lists  | <ul><li>     | </li></ul>    | '- '
            """)
    void quotesAndListsNestedDeeperThanSixteenAreWrittenSixteenDeep(String shape, String open, String close,
            String mark) {
        String html = "<body>" + open.repeat(600) + "<p>the innermost words of all</p>" + close.repeat(600) + "</body>";
        String markdown = MainContent.of(Jsoup.parse(html, "https://example.org/"),
                new ContentRequest(ContentFormat.MARKDOWN, 10_000_000)).content().text();
        String line = markdown.lines().filter(l -> l.contains("innermost")).findFirst().orElseThrow();
        int marks = line.strip().split(mark.strip(), -1).length - 1;
        assertThat(marks).as(shape + ": " + line).isEqualTo(16);
    }

    /**
     * Custom elements nested as deep as the parser allows, words beside each level: whether one is shown inline is
     * asked at every level around it, and answered by all it holds. Unless each answer is kept, this page (7.8 MB)
     * took 12 s; kept, about 1.
     */
    @Test
    void customElementsNestedAsDeepAsTheParserAllowsAreEachJudgedOnce() {
        String level = "<x-level>" + "<x-word>word</x-word> ".repeat(800);
        String html = "<body>" + level.repeat(512) + "<p>the innermost words</p>" + "</x-level>".repeat(512) + "</body>";
        Document doc = Jsoup.parse(html, "https://example.org/");
        MainContent.Extracted read = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> MainContent.of(doc, new ContentRequest(ContentFormat.MARKDOWN, 10_000_000)));
        assertThat(read.content().text()).contains("the innermost words");
    }

    /**
     * Labels by the thousand, each naming the element it is for: whether a label is a tab (a label for a radio
     * button) was asked of the whole page each time, and 20,000 labels (3 MB) took 77 s.
     */
    @Test
    void aPageOfManyLabelsIsReadInOneWalk() {
        String label = "<p>Choose an option of the many this long form offers, each with a sentence to read. <label"
                + " for='option%1$d'>Option %1$d</label></p>";
        StringBuilder html = new StringBuilder("<body><article><h1>A long form</h1>");
        for (int i = 0; i < 10_000; i++) {
            html.append(label.formatted(i));
        }
        Document doc = Jsoup.parse(html + "</article></body>", "https://example.org/");
        MainContent.Extracted read = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> MainContent.of(doc, new ContentRequest(ContentFormat.MARKDOWN, 10_000_000)));
        assertThat(read.content().text()).contains("each with a sentence to read");
    }
}
