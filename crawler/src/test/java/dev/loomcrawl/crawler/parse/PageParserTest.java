package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The parser walks a page once; what it finds must be what Jsoup's own selector queries find, one query
 * each, as it did before (the oracle below), on pages made to catch the difference: a base after the
 * links, two of each, upper case, a title in the body, links without href, image maps, nofollow three ways,
 * frames, refreshes.
 */
class PageParserTest {
    private static final String URL = "http://a.test/dir/page";

    @ParameterizedTest
    @ValueSource(strings = {
        "<title>t</title><a href=/x>x</a><a href=y>y</a><a>no href</a><a href=''>empty</a><a href='#f'>frag</a>",
        "<a href=x>before base</a><base href='http://b.test/sub/'><base href='http://c.test/'><a href=y>after</a>",
        "<base target=_top><base href='/root/'><a href=z>z</a>",
        "<body><title>in body</title><a href=/a>a</a></body>",
        "<head><title> two   words \n</title><title>second</title></head><body><p><a href=/p>p</a></p></body>",
        "<head><noscript><title>nested</title></noscript></head>",
        "<link rel=CANONICAL href=/canon><link rel=canonical href=/second><link rel='alternate canonical' href=/x>",
        "<link rel=canonical><link rel=canonical href=/late>",
        "<meta name=ROBOTS content='noindex, NOFOLLOW'><a href=/m>m</a>",
        "<meta name=googlebot content=none><a href=/g>g</a>",
        "<meta name=robots content=noindex><meta name=description content=nofollow><a href=/d rel='ugc nofollow'>d</a>",
        "<map><area href=/area1><area nohref></map><a href=/dup>1</a><a href=/dup#x>2</a><a href=mailto:x@y.z>m</a>",
        "<svg><a href=/svg>svg</a></svg><table><a href=/t>t</a><tr><td><a href=/td>td</a></table>",
        "<frameset><frame src=/left><frame><frame src=/right></frameset>",
        "<meta http-equiv=Refresh content='0; URL=/moved'><meta http-equiv=refresh content='1;/second'><iframe src=/i>",
        "<meta http-equiv=refresh content=30><iframe src=''></iframe><a href=/a rel=nofollow>a</a>",
        "no markup at all",
        ""
    })
    void oneWalkFindsWhatTheSelectorsFound(String html) {
        for (String header : new String[] {null, "nofollow", "noarchive"}) {
            PageParser.Parsed walked = PageParser.parseHere(html.getBytes(StandardCharsets.UTF_8), "utf-8", URL, "loomcrawl",
                    new PageParser.Headers(header == null ? List.of() : List.of(header), null), ContentRequest.NONE);
            PageParser.Parsed selected = bySelectors(walked.document(), header);
            assertThat(walked.title()).as(html).isEqualTo(selected.title());
            assertThat(walked.links()).as(html).isEqualTo(selected.links());
            assertThat(walked.canonical()).as(html).isEqualTo(selected.canonical());
            assertThat(walked.robots()).as(html).isEqualTo(selected.robots());
        }
    }

    @org.junit.jupiter.api.Test
    void theCasesAboveFindSomething() {
        String html = "<base href='http://b.test/s/'><title>t</title><link rel=canonical href=c><a href=x>x</a><area href=y>";
        PageParser.Parsed p = PageParser.parseHere(html.getBytes(StandardCharsets.UTF_8), "utf-8", URL, "loomcrawl",
                PageParser.Headers.NONE, ContentRequest.NONE);
        assertThat(p.title()).isEqualTo("t");
        assertThat(p.canonical()).isEqualTo("http://b.test/s/c");
        assertThat(p.links()).extracting(link -> link.url().url()).containsExactly("http://b.test/s/x", "http://b.test/s/y");
    }

    /** A frameset's frames and a refresh's target are links: a page of frames, or a redirect page, has no other. */
    @org.junit.jupiter.api.Test
    void framesAndARefreshAreLinks() {
        String html = "<meta http-equiv=refresh content=\"0; url='/new home'\"><frameset><frame src=nav.html>"
                + "<frame src=main.html></frameset>";
        byte[] page = html.getBytes(StandardCharsets.UTF_8);
        assertThat(PageParser.parseHere(page, "utf-8", URL, "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE).links())
                .extracting(link -> link.url().url())
                .containsExactly("http://a.test/new%20home", "http://a.test/dir/nav.html", "http://a.test/dir/main.html");
        // a browser acts on the first refresh it meets, and the header comes before the page
        assertThat(PageParser.parseHere(page, "utf-8", URL, "loomcrawl", new PageParser.Headers(List.of(), "5;url=/from-header"),
                ContentRequest.NONE).links()).extracting(link -> link.url().url())
                .containsExactly("http://a.test/from-header", "http://a.test/dir/nav.html", "http://a.test/dir/main.html");
    }

    /** A directive is a word: {@code max-image-preview:none} and {@code nofollowing} say nothing of links. */
    @org.junit.jupiter.api.Test
    void nofollowIsAWordOfItsOwn() {
        String html = "<meta name=robots content='max-image-preview:none, max-snippet:-1'><a href=/a rel=nofollowing>a</a>";
        byte[] page = html.getBytes(StandardCharsets.UTF_8);
        PageParser.Parsed p = PageParser.parseHere(page, "utf-8", URL, "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE);
        assertThat(p.robots()).isEqualTo(RobotsDirectives.NONE);
        assertThat(p.links()).singleElement().satisfies(link -> assertThat(link.follow()).isTrue());
        assertThat(PageParser.parseHere(page, "utf-8", URL, "loomcrawl",
                new PageParser.Headers(List.of("noarchive", "NOFOLLOW"), null), ContentRequest.NONE).robots().nofollow())
                .as("the second X-Robots-Tag counts too").isTrue();
    }

    @org.junit.jupiter.api.Test
    void aTitleKeepsNoControlCharacters() {
        byte[] page = "<title>a\u0007b \u0085c\u0000</title>".getBytes(StandardCharsets.UTF_8);
        assertThat(PageParser.parseHere(page, null, URL, "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE).title())
                .isEqualTo("ab c\uFFFD");
    }

    /** What the parser did before it walked the page once: a selector query for each thing it looks for. */
    private static PageParser.Parsed bySelectors(Document doc, String robotsHeader) {
        Evaluator links = QueryParser.parse("a[href], area[href], frame[src], iframe[src], meta[http-equiv][content]");
        Evaluator canonicalQuery = QueryParser.parse("link[rel~=(?i)^canonical$][href]");
        Evaluator metaRobots = QueryParser.parse("meta[name~=(?i)^(robots|loomcrawl)$][content]");
        boolean nofollow = has(robotsHeader, "nofollow");
        boolean noindex = has(robotsHeader, "noindex");
        for (Element meta : doc.select(metaRobots)) {
            nofollow |= has(meta.attr("content"), "nofollow");
            noindex |= has(meta.attr("content"), "noindex");
        }
        Element base = doc.selectFirst(QueryParser.parse("base[href]"));
        var baseUrl = PageParser.baseUrl(URL, base);
        Element canonical = doc.selectFirst(canonicalQuery);
        String canonicalUrl = canonical != null && CrawlUrl.check(canonical.attr("href"), baseUrl) instanceof CrawlUrl.Check.Ok ok
                ? ok.url().url() : null;
        List<PageParser.Ref> refs = new ArrayList<>();
        boolean refreshed = false;
        for (Element e : doc.select(links)) {
            switch (e.normalName()) {
                case "a", "area" -> refs.add(new PageParser.Ref(e.attr("href"), has(e.attr("rel"), "nofollow")));
                case "meta" -> {
                    String target = e.attr("http-equiv").equalsIgnoreCase("refresh") && !refreshed
                            ? Refresh.target(e.attr("content")) : null;
                    if (target != null) {
                        refs.add(new PageParser.Ref(target, false));
                        refreshed = true;
                    }
                }
                default -> refs.add(new PageParser.Ref(e.attr("src"), false));
            }
        }
        return new PageParser.Parsed(doc, doc.title(), PageParser.links(refs, baseUrl, URL, nofollow),
                canonicalUrl, new RobotsDirectives(nofollow, noindex), 0L, null);
    }

    /** Whether {@code directives} hold {@code directive}, or {@code none}, which is both. */
    private static boolean has(String directives, String directive) {
        return directives != null && java.util.Arrays.stream(directives.split("[\\s,]+"))
                .anyMatch(word -> word.equalsIgnoreCase(directive) || word.equalsIgnoreCase("none"));
    }
}
