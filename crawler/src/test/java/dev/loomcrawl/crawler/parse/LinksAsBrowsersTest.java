package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.url.UrlStandardTest;
import dev.loomcrawl.crawler.url.WebUrl;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * A page's links as a browser resolves them, end to end through the parser: for each base in the URL Standard's
 * test data (http(s), {@code file:}, {@code about:blank}, any other), a page with {@code <base href>} and one
 * link per case. The page's links must be the
 * browsers' URLs (fragment dropped), in order, each once, and none where the standard fails, the scheme is
 * not http(s) or the crawler's policy refuses the URL.
 */
class LinksAsBrowsersTest {
    private static final String PAGE = "http://page.test/index.html";

    @Test
    void everyCaseWithABaseGivesTheBrowsersUrlOrNoLink() throws IOException {
        Map<String, List<UrlStandardTest.Case>> byBase = UrlStandardTest.allCases()
                .filter(c -> c.base() != null)
                .filter(c -> c.input().indexOf('\0') < 0) // HTML makes U+0000 in an attribute U+FFFD
                .collect(Collectors.groupingBy(UrlStandardTest.Case::base, java.util.LinkedHashMap::new, Collectors.toList()));
        int links = 0;
        for (Map.Entry<String, List<UrlStandardTest.Case>> page : byBase.entrySet()) {
            Document doc = Document.createShell(PAGE);
            doc.head().appendElement("base").attr("href", page.getKey());
            Set<String> expected = new LinkedHashSet<>();
            for (UrlStandardTest.Case c : page.getValue()) {
                doc.body().appendElement("a").attr("href", c.input()).text("x");
                if (!c.failure() && (c.href().startsWith("http:") || c.href().startsWith("https:")) && !refusedByPolicy(c.href())) {
                    int hash = c.href().indexOf('#');
                    expected.add(hash < 0 ? c.href() : c.href().substring(0, hash));
                }
            }
            PageParser.Parsed parsed = PageParser.parseHere(doc.outerHtml().getBytes(StandardCharsets.UTF_8), "utf-8", PAGE, "loomcrawl",
                    PageParser.Headers.NONE, ContentRequest.NONE);
            List<String> found = new ArrayList<>();
            parsed.links().forEach(link -> found.add(link.url().url()));
            assertThat(found).as("links on a page with <base href=%s>", page.getKey()).containsExactlyElementsOf(expected);
            links += found.size();
        }
        assertThat(links).isGreaterThan(60); // 64 distinct URLs today; the rest fail, repeat, or are no http(s)
    }

    /** What the crawler refuses of a valid URL (docs/urls.md): credentials, and port 0. */
    private static boolean refusedByPolicy(String href) {
        WebUrl url = ((WebUrl.Parse.Ok) WebUrl.parse(href)).url();
        return !url.username().isEmpty() || !url.password().isEmpty() || url.port() == 0;
    }

    @Test
    void theBaseElementIsWhatTheLinksResolveAgainst() {
        Document doc = Document.createShell(PAGE);
        Element base = doc.head().appendElement("base").attr("href", "http://example.org/foo/bar");
        doc.body().appendElement("a").attr("href", "x");
        base.attr("href", "http://[google.com]/"); // no URL: the page's own URL is the base, as in a browser
        PageParser.Parsed parsed = PageParser.parseHere(doc.outerHtml().getBytes(StandardCharsets.UTF_8), "utf-8", PAGE, "loomcrawl",
                PageParser.Headers.NONE, ContentRequest.NONE);
        assertThat(parsed.links()).extracting(link -> link.url().url()).containsExactly("http://page.test/x");
    }

    @Test
    void aBaseOfAnotherSchemeLeavesOnlyAbsoluteLinksInThePageAndItsMarkdown() {
        String html = "<base href='javascript:void(0)/'><article><p>The report is <a href='rel'>here</a>, the data"
                + " <a href='//cdn.test/data'>there</a> and the method <a href='http://a.test/method'>on its own page</a>,"
                + " which the team wrote over two years of field work in the valley.</p></article>";
        PageParser.Parsed parsed = PageParser.parseHere(html.getBytes(StandardCharsets.UTF_8), "utf-8", PAGE, "loomcrawl",
                PageParser.Headers.NONE, new ContentRequest(ContentFormat.MARKDOWN, 100_000));
        assertThat(parsed.links()).extracting(link -> link.url().url()).containsExactly("http://a.test/method");
        assertThat(parsed.content().content().text())
                .contains("[on its own page](http://a.test/method)")
                .doesNotContain("](http://page.test").doesNotContain("cdn.test");
    }
}
