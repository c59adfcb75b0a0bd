package dev.loomcrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.temporaryRedirect;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PinningWatch;
import dev.loomcrawl.testkit.TestSite;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The web as it is rather than as the farm serves it: charsets declared wrong or not at all, compression,
 * robots.txt behind redirects, user agents, scope by domain, nofollow, non-HTML. Each site here behaves
 * like the real case it is named after; every check is made at the server or in the store.
 */
@ExtendWith(PinningWatch.class)
class RealWebTest {
    private static final AtomicLong DB = new AtomicLong();

    private PageStore store;
    private Crawler crawler;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:realweb" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
    }

    private Map<String, PageRecord> crawl(TestSite site, CrawlConfigBuilder config) throws InterruptedException {
        CrawlJob job = crawler.start(config.build());
        JobSummary summary = job.awaitSummary();
        assertThat(job.failureMessage()).isEmpty();
        return store.pages(summary.jobId(), 0, 1_000, null).stream()
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), Function.identity()));
    }

    private static ResponseDefinitionBuilder page(String contentType, byte[] body) {
        return aResponse().withStatus(200).withHeader("Content-Type", contentType).withBody(body);
    }

    private static String links(String... paths) {
        StringBuilder html = new StringBuilder();
        for (String path : paths) {
            html.append("<a href=\"").append(path).append("\">").append(path).append("</a> ");
        }
        return html.toString();
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void theCharsetIsTheHeadersThenTheDocumentsThenUtf8(ExecutionMode mode) throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/header", "/meta", "/bom", "/unknown-charset", "/none")))
                    // A Latin-1 page declared in the header only: the case that came out as "Caf\uFFFD home".
                    .stub("/header", page("text/html; charset=ISO-8859-1",
                            "<title>Café home</title>".getBytes(StandardCharsets.ISO_8859_1)))
                    .stub("/meta", page("text/html", "<meta charset=\"windows-1252\"><title>Café meta</title>"
                            .getBytes(StandardCharsets.ISO_8859_1)))
                    // A byte-order mark wins over a header that is wrong.
                    .stub("/bom", page("text/html; charset=ISO-8859-1",
                            concat(bom, "<title>Café bom</title>".getBytes(StandardCharsets.UTF_8))))
                    .stub("/unknown-charset", page("text/html; charset=x-no-such-charset",
                            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><title>Café unknown</title>"
                                    .getBytes(StandardCharsets.ISO_8859_1)))
                    .stub("/none", page("text/html", "<title>Café none</title>".getBytes(StandardCharsets.UTF_8)));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).mode(mode));

            assertThat(pages.get("/header").title()).isEqualTo("Café home");
            assertThat(pages.get("/meta").title()).isEqualTo("Café meta");
            assertThat(pages.get("/bom").title()).isEqualTo("Café bom");
            assertThat(pages.get("/unknown-charset").title()).isEqualTo("Café unknown");
            assertThat(pages.get("/none").title()).isEqualTo("Café none");
        }
    }

    /**
     * Links whose paths escape unreserved characters ({@code %7E}, {@code %2d}) are fetched as a browser fetches
     * them, escapes, queries and all, and the page holding them is stored with them.
     */
    @Test
    void linksWithEscapedUnreservedCharactersKeepTheirQueries() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/%7Euser?x=1", "/p%2d1/p%2d2/?q=f")))
                    .stub("/%7Euser", TestSite.html("<title>user</title>"))
                    .stub("/p%2d1/p%2d2/", TestSite.html("<title>p</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            assertThat(pages.get("/").status()).isEqualTo(200);
            assertThat(site.counter.requests("/%7Euser?x=1")).isEqualTo(1);
            assertThat(site.counter.requests("/p%2d1/p%2d2/?q=f")).isEqualTo(1);
            assertThat(pages.get("/%7Euser?x=1").title()).isEqualTo("user");
            assertThat(pages.get("/p%2d1/p%2d2/?q=f").title()).isEqualTo("p");
        }
    }

    /**
     * Every spelling of one address is one host: seeds and links that name 127.0.0.1 as {@code 2130706433},
     * {@code 127.1} or {@code 0x7f.0.0.1} fetch robots.txt once and each page once, under one politeness key.
     */
    @Test
    void everySpellingOfAnAddressIsOneHost() throws Exception {
        try (TestSite site = new TestSite()) {
            String port = site.url("").substring(site.url("").lastIndexOf(':') + 1);
            site.stub("/", TestSite.html(links("http://2130706433:" + port + "/a", "http://0x7f.0.0.1:" + port + "/a",
                    "//127.1:" + port + "/")))
                    .stub("/a", TestSite.html("<title>a</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed("http://127.0.0.1:" + port + "/")
                    .seed("http://2130706433:" + port + "/").seed("http://127.1:" + port + "/"));

            assertThat(pages).containsOnlyKeys("/", "/a");
            assertThat(site.counter.requests("/")).isEqualTo(1);
            assertThat(site.counter.requests("/a")).isEqualTo(1);
            assertThat(site.counter.requests("/robots.txt")).isEqualTo(1);
        }
    }

    /**
     * A task that meets a bug (here a page handler's StackOverflowError: the harvester catches a handler's
     * exceptions, not errors) records its URL as an internal failure, once, and the job ends. The record used
     * to be made after the lease had closed and put the URL back: fetched again, failed again, for ever.
     */
    @Test
    void aTaskThatFailsRecordsItsUrlOnceAndTheJobEnds() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/a", "/b")))
                    .stub("/a", TestSite.html("<title>a</title>"))
                    .stub("/b", TestSite.html("<title>b</title>"));

            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).build(), page -> {
                if (page.url().endsWith("/a")) {
                    throw new StackOverflowError("too deep");
                }
                return Map.of();
            });
            JobSummary summary = job.awaitSummary();

            assertThat(site.counter.requests("/a")).isEqualTo(1);
            Map<String, PageRecord> pages = store.pages(summary.jobId(), 0, 10, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), Function.identity()));
            assertThat(pages.get("/a").failure()).isEqualTo("internal");
            assertThat(pages.get("/a").detail()).contains("StackOverflowError");
            assertThat(pages.get("/b").title()).isEqualTo("b");
            assertThat(summary.failed()).isEqualTo(1);
        }
    }

    @Test
    void robotsTxtBehindRedirectsIsFollowedToTheRealFile() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", temporaryRedirect("/robots-moved.txt"))
                    .stub("/robots-moved.txt", aResponse().withStatus(301).withHeader("Location", site.url("/real/robots.txt")))
                    .stub("/real/robots.txt", page("text/plain", "User-agent: *\nDisallow: /sub/\n".getBytes(StandardCharsets.UTF_8)))
                    .stub("/", TestSite.html(links("/sub/secret", "/open")))
                    .stub("/sub/secret", TestSite.html("<title>secret</title>"))
                    .stub("/open", TestSite.html("<title>open</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            assertThat(site.counter.requests("/sub/secret")).isZero();
            assertThat(pages.get("/sub/secret").outcome()).isEqualTo(Outcome.SKIPPED);
            assertThat(pages.get("/sub/secret").failure()).isEqualTo("robots");
            assertThat(pages.get("/open").title()).isEqualTo("open");
            assertThat(site.counter.requests("/real/robots.txt")).isEqualTo(1);
        }
    }

    @Test
    void robotsTxtBehindTooManyRedirectsCountsAsUnavailableAndAllowsAll() throws Exception {
        try (TestSite site = new TestSite()) {
            for (int i = 0; i < 7; i++) {
                site.stub(i == 0 ? "/robots.txt" : "/r" + i, temporaryRedirect("/r" + (i + 1)));
            }
            site.stub("/r7", page("text/plain", "User-agent: *\nDisallow: /\n".getBytes(StandardCharsets.UTF_8)))
                    .stub("/", TestSite.html(links("/open")))
                    .stub("/open", TestSite.html("<title>open</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            // RFC 9309 2.3.1.2: after five redirects, robots.txt is unavailable, which is a 4xx: allow all.
            assertThat(site.counter.requests("/r6")).isZero();
            assertThat(pages.get("/open").outcome()).isEqualTo(Outcome.OK);
        }
    }

    /**
     * A robots.txt over the 512 KiB read (RFC 9309 asks at least 500 KiB) is read to its last whole line within
     * them, not refused: a rule inside counts, one past it does not, and the skip says the file was cut.
     */
    @Test
    void aRobotsTxtOverTheCapIsReadToItsLastWholeLineAndSaysSo() throws Exception {
        StringBuilder robots = new StringBuilder("User-agent: *\nDisallow: /early/\n");
        while (robots.length() < 520 * 1024) {
            robots.append("# filler to pass the read limit of robots.txt, as some sites' generated files do\n");
        }
        robots.append("Disallow: /late/\n");
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", page("text/plain", robots.toString().getBytes(StandardCharsets.UTF_8)))
                    .stub("/", TestSite.html(links("/early/a", "/late/b")))
                    .stub("/late/b", TestSite.html("<title>late</title>"));
            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));
            assertThat(pages.get("/early/a").failure()).isEqualTo("robots");
            assertThat(pages.get("/early/a").detail()).contains("first 512 KiB");
            assertThat(pages.get("/late/b").outcome()).isEqualTo(Outcome.OK); // past the read: not a rule
        }
    }

    /**
     * gzip, deflate and br are asked for and decoded, codings applied one after another too; a bomb is cut at the
     * limit on its decoded size, and so is a page whose compressed bytes alone pass it (the start of a gzip stream
     * decoded); a body not HTML over the limit fails as {@code too-large}, a coding of no known name is read as no
     * coding, and a body that is not what its coding says fails as {@code protocol}.
     */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void compressedPagesAreAskedForAndDecodedAndABombIsCutAtTheLimit(ExecutionMode mode) throws Exception {
        String big = "<title>zipped</title>" + "<p>filler</p>".repeat(2_000)
                + links("/deflated", "/bomb", "/brotli", "/dense", "/big.pdf", "/none");
        // 2 MB of random letters, which gzip cannot shrink below the 1 MiB limit
        StringBuilder dense = new StringBuilder("<title>dense</title><a href=/dense-link>first</a><p>");
        Random random = new Random(7);
        while (dense.length() < 2 << 20) {
            dense.append((char) ('a' + random.nextInt(26)));
        }
        try (TestSite site = new TestSite()) {
            site.stub("/", page("text/html; charset=utf-8", gzip(big.getBytes(StandardCharsets.UTF_8)))
                            .withHeader("Content-Encoding", "gzip"))
                    .stub("/deflated", page("text/html", deflate("<title>deflated</title>".getBytes(StandardCharsets.UTF_8)))
                            .withHeader("Content-Encoding", "deflate"))
                    // 64 MiB of zeros in about 64 KB: the cap holds on the decoded size.
                    .stub("/bomb", page("text/html", gzip(new byte[64 << 20])).withHeader("Content-Encoding", "gzip"))
                    .stub("/brotli", page("text/html", brotli("page.html.br")).withHeader("Content-Encoding", "br"))
                    .stub("/layered", page("text/html", brotli("layered.html.gz.br"))
                            .withHeader("Content-Encoding", "gzip, BR")) // gzip applied first: br is undone first
                    .stub("/br-bomb", page("text/html", brotli("bomb.br")).withHeader("Content-Encoding", "br"))
                    .stub("/bad-br", TestSite.html("<title>not brotli at all</title>").withHeader("Content-Encoding", "br"))
                    .stub("/dense", page("text/html", gzip(dense.toString().getBytes(StandardCharsets.UTF_8)))
                            .withHeader("Content-Encoding", "gzip"))
                    .stub("/dense-link", TestSite.html("<title>reached</title>"))
                    .stub("/big.pdf", page("application/pdf", new byte[(1 << 20) + 1]))
                    // a name no coding has, which servers send: the body as it came, as Chromium reads it
                    .stub("/none", TestSite.html("<title>not encoded</title>").withHeader("Content-Encoding", "none"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).mode(mode)
                    .maxBodyBytes(1 << 20).acceptType("application/pdf"));

            assertThat(site.counter.headerValues("Accept-Encoding")).containsExactly("gzip, deflate, br");
            assertThat(pages.get("/").title()).isEqualTo("zipped");
            assertThat(pages.get("/").bytes()).isEqualTo(big.length()); // decoded size
            assertThat(pages.get("/deflated").title()).isEqualTo("deflated");
            String cut = "cut at 1048576 bytes: the body limit";
            for (String path : List.of("/bomb", "/br-bomb", "/dense")) {
                assertThat(pages.get(path).ok()).as(path).isTrue();
                assertThat(pages.get(path).bytes()).as(path).isEqualTo(1 << 20);
                assertThat(pages.get(path).detail()).as(path).isEqualTo(cut);
            }
            assertThat(pages.get("/dense").title()).isEqualTo("dense");
            assertThat(pages.get("/dense-link").title()).isEqualTo("reached"); // its links before the cut are followed
            assertThat(pages.get("/big.pdf").failure()).isEqualTo("too-large"); // a PDF without its end is no PDF
            assertThat(pages.get("/brotli").title()).isEqualTo("brotli");
            assertThat(pages.get("/layered").title()).isEqualTo("layered");
            assertThat(pages.get("/none").title()).isEqualTo("not encoded");
            assertThat(pages.get("/bad-br").failure()).isEqualTo("protocol");
            assertThat(pages.get("/bad-br").detail()).isEqualTo("cannot decode Content-Encoding: br");
        }
    }

    /** A body Python's brotli made (the JDK has no Brotli encoder): see resources/brotli/README.md. */
    private static byte[] brotli(String name) throws IOException {
        try (InputStream in = RealWebTest.class.getResourceAsStream("/brotli/" + name)) {
            return Objects.requireNonNull(in, name).readAllBytes();
        }
    }

    /**
     * Pages in legacy encodings are stored as a browser shows them: a latin1 label read as windows-1252 (its
     * curly quote), a page that declares nothing guessed, a {@code <meta>} past the first 1,024 bytes obeyed.
     */
    @Test
    void pagesAreDecodedAsABrowserDecodesThem() throws Exception {
        Charset cp1252 = Charset.forName("windows-1252");
        String french = "L’été à Noël, “déjà vu” – un café pour €2";
        String russian = "Привет, мир";
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/labelled", "/undeclared", "/late")))
                    .stub("/labelled", page("text/html; charset=ISO-8859-1",
                            ("<title>" + french + "</title><p>" + french).getBytes(cp1252)))
                    .stub("/undeclared", page("text/html",
                            ("<title>" + french + "</title><p>" + (french + ". ").repeat(5)).getBytes(cp1252)))
                    .stub("/late", page("text/html", ("<script>" + "/* a long head */ ".repeat(80) + "</script>"
                            + "<meta charset=koi8-r><title>" + russian + "</title>").getBytes(Charset.forName("KOI8-R"))));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).content(ContentFormat.TEXT));

            assertThat(pages.get("/labelled").title()).isEqualTo(french);
            assertThat(pages.get("/labelled").content().text()).contains(french);
            assertThat(pages.get("/undeclared").title()).isEqualTo(french);
            assertThat(pages.get("/late").title()).isEqualTo(russian);
        }
    }

    /**
     * What a browser makes of answers that leave out what a crawler expects: a page served with no type
     * (sniffed as HTML, as the MIME Sniffing Standard says; an untyped image is not), a {@code Location} in raw
     * UTF-8 bytes, a page that redirects by a {@code <meta>} refresh, a frameset, and a body that breaks off
     * after its headers.
     */
    @Test
    void answersWithoutTheUsualPartsAreReadAsABrowserReadsThem() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/untyped", "/untyped.png", "/moved", "/old", "/frames", "/broken")))
                    .stub("/untyped", aResponse().withStatus(200).withBody("\n <HTML><title>no type</title>"
                            + links("/from-untyped")))
                    .stub("/untyped.png", aResponse().withStatus(200).withBody(new byte[] {(byte) 0x89, 'P', 'N', 'G'}))
                    // the header's text is each byte as one char, as the JDK reads it and Jetty writes it
                    .stub("/moved", temporaryRedirect(new String("/café".getBytes(StandardCharsets.UTF_8),
                            StandardCharsets.ISO_8859_1)))
                    .stub("/old", TestSite.html("<meta http-equiv=refresh content='0; url=/new'>Moved."))
                    .stub("/frames", TestSite.html("<frameset><frame src=/left><frame src=/right></frameset>"))
                    .stub("/broken", aResponse().withFault(Fault.MALFORMED_RESPONSE_CHUNK));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            assertThat(pages.get("/untyped").contentType()).isEqualTo("text/html");
            assertThat(pages.get("/untyped").title()).isEqualTo("no type");
            assertThat(pages).containsKey("/from-untyped");
            assertThat(pages.get("/untyped.png").failure()).isEqualTo("not-html");
            assertThat(pages.get("/untyped.png").bytes()).isEqualTo(4);
            assertThat(pages.get("/moved").detail()).isEqualTo("redirect to " + site.url("/caf%C3%A9"));
            assertThat(site.counter.requests("/caf%C3%A9")).isOne();
            assertThat(pages.get("/old").outlinks()).containsExactly(site.url("/new"));
            assertThat(site.counter.requests("/new")).isOne();
            assertThat(site.counter.requests("/left") + site.counter.requests("/right")).isEqualTo(2);
            assertThat(pages.get("/broken").detail()).startsWith("the body broke off (HTTP 200 sent): ");
        }
    }

    /**
     * A site that sets a cookie and sends the browser back to the same URL, then wants the cookie on every
     * page: with cookies kept the crawl gets in, without them it meets a redirect loop, as a browser without
     * cookies would.
     */
    @Test
    void cookiesAreKeptWhenAskedAndASelfRedirectThatSetsOneIsAskedAgain() throws Exception {
        try (TestSite site = new TestSite()) {
            site.server.stubFor(get(urlPathEqualTo("/gate")).atPriority(1).withHeader("Cookie", containing("pass=1"))
                    .willReturn(TestSite.html("<title>inside</title>" + links("/members"))));
            site.server.stubFor(get(urlPathEqualTo("/gate")).atPriority(5)
                    .willReturn(temporaryRedirect("/gate").withHeader("Set-Cookie", "pass=1; Path=/")));
            site.server.stubFor(get(urlPathEqualTo("/members")).atPriority(1).withHeader("Cookie", containing("pass=1"))
                    .willReturn(TestSite.html("<title>members</title>")));
            site.server.stubFor(get(urlPathEqualTo("/members")).atPriority(5).willReturn(aResponse().withStatus(403)));

            Map<String, PageRecord> kept = crawl(site, CrawlConfig.builder().seed(site.url("/gate")).cookies(true));
            assertThat(kept.get("/gate").status()).isEqualTo(200);
            assertThat(kept.get("/gate").title()).isEqualTo("inside");
            assertThat(kept.get("/members").status()).isEqualTo(200);

            CrawlJob none = crawler.start(CrawlConfig.builder().seed(site.url("/gate")).build());
            none.awaitSummary();
            assertThat(none.failureMessage()).hasValueSatisfying(why -> assertThat(why).contains("redirect loop"));
        }
    }

    @Test
    void aDomainAdmitsItsSubdomainsAndDenyPatternsKeepUrlsOut() throws Exception {
        try (TestSite site = new TestSite()) {
            String port = ":" + site.server.port();
            site.stub("/", TestSite.html(links("http://www.shop.loomcrawl.test" + port + "/www",
                            "http://a.b.shop.loomcrawl.test" + port + "/deep",
                            "http://other.loomcrawl.test" + port + "/other",
                            "http://notshop.loomcrawl.test" + port + "/notshop",
                            "/calendar/2031-01", "/page?sessionid=42", "/kept")))
                    .stub("/www", TestSite.html("<title>www</title>"))
                    .stub("/deep", TestSite.html("<title>deep</title>"))
                    .stub("/kept", TestSite.html("<title>kept</title>"));

            CrawlJob job = crawler.start(CrawlConfig.builder().seed("http://shop.loomcrawl.test" + port + "/")
                    .allowDomain("shop.loomcrawl.test").denyPattern("/calendar/").denyPattern("sessionid=").build());
            JobSummary summary = job.awaitSummary();

            assertThat(site.counter.headerValues("Host")).containsExactlyInAnyOrder("shop.loomcrawl.test" + port,
                    "www.shop.loomcrawl.test" + port, "a.b.shop.loomcrawl.test" + port);
            assertThat(site.counter.requests("/other") + site.counter.requests("/notshop")).isZero();
            assertThat(site.counter.requests("/calendar/2031-01") + site.counter.requests("/page")).isZero();
            assertThat(summary.pages()).isEqualTo(4); // root, www, deep, kept
        }
    }

    /** A docs section and nothing else: links and redirects outside the allow patterns stay out, the seed is in. */
    @Test
    void allowPatternsKeepEveryOtherLinkOut() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/start", TestSite.html(links("/guide/", "/guide/a", "/blog/x", "/guide/moved", "/api/b?x=/guide/")))
                    .stub("/guide/", TestSite.html("<title>guide</title>"))
                    .stub("/guide/a", TestSite.html("<title>a</title>" + links("/api/c")))
                    .stub("/guide/moved", temporaryRedirect("/blog/moved"))
                    .stub("/api/c", TestSite.html("<title>c</title>"));

            JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/start"))
                    .allowPattern("^http://[^/]+/guide/").allowPattern("/api/c$").denyPattern("/guide/$").build())
                    .awaitSummary();

            for (String kept : List.of("/start", "/guide/a", "/guide/moved", "/api/c")) {
                assertThat(site.counter.requests(kept)).as(kept).isEqualTo(1);
            }
            for (String out : List.of("/guide/", "/blog/x", "/blog/moved", "/api/b?x=/guide/")) {
                assertThat(site.counter.requests(out)).as(out).isZero();
            }
            assertThat(summary.pages()).isEqualTo(4); // start, a, c, and the redirect, its target out of scope
        }
    }

    @Test
    void theUserAgentAndHeadersAreSentAndRobotsTxtMatchesTheProductToken() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", page("text/plain", """
                            User-agent: acmebot
                            Disallow: /members/

                            User-agent: *
                            Disallow: /
                            """.getBytes(StandardCharsets.UTF_8)))
                    .stub("/", TestSite.html(links("/members/list", "/about")))
                    .stub("/about", TestSite.html("<title>about</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/"))
                    .userAgent("AcmeBot/2.1 (+https://acme.example/bot)").header("X-Team", "blue")
                    .header("Accept-Language", "fr"));

            assertThat(site.counter.headerValues("User-Agent")).containsExactly("AcmeBot/2.1 (+https://acme.example/bot)");
            assertThat(site.counter.headerValues("X-Team")).containsExactly("blue");
            assertThat(site.counter.headerValues("Accept-Language")).containsExactly("fr");
            // The AcmeBot group applies (not the catch-all that forbids everything).
            assertThat(pages.get("/about").outcome()).isEqualTo(Outcome.OK);
            assertThat(pages.get("/members/list").failure()).isEqualTo("robots");
            assertThat(site.counter.requests("/members/list")).isZero();
        }
    }

    @Test
    void nofollowIsObeyedUnlessIgnoredAndTheCanonicalIsRecorded() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<link rel=\"canonical\" href=\"/home\"><title>root</title>"
                            + links("/followed", "/meta-nofollow", "/header-nofollow")
                            + "<a rel=\"nofollow ugc\" href=\"/rel-nofollow\">x</a>"))
                    .stub("/followed", TestSite.html("<title>followed</title>"))
                    .stub("/rel-nofollow", TestSite.html("<title>rel</title>"))
                    .stub("/meta-nofollow", TestSite.html("<meta name=\"robots\" content=\"noindex, nofollow\">"
                            + links("/from-meta")))
                    .stub("/header-nofollow", TestSite.html(links("/from-header")).withHeader("X-Robots-Tag", "nofollow"))
                    .stub("/from-meta", TestSite.html("<title>m</title>"))
                    .stub("/from-header", TestSite.html("<title>h</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            assertThat(pages.keySet()).containsExactlyInAnyOrder("/", "/followed", "/meta-nofollow", "/header-nofollow");
            assertThat(site.counter.requests("/rel-nofollow") + site.counter.requests("/from-meta")
                    + site.counter.requests("/from-header")).isZero();
            assertThat(pages.get("/").canonical()).isEqualTo(site.url("/home"));
            assertThat(pages.get("/").outlinks()).contains(site.url("/rel-nofollow")); // found, not followed

            Map<String, PageRecord> all = crawl(site, CrawlConfig.builder().seed(site.url("/")).ignoreNofollow(true));
            assertThat(all.keySet()).contains("/rel-nofollow", "/from-meta", "/from-header");
        }
    }

    /**
     * A page that asks not to be indexed is crawled, its links followed, its row saying {@code noindex}, but none of
     * its content kept unless the job ignores that; a meta or header for another crawler is not ours.
     */
    @Test
    void aNoindexPageKeepsNoContentUnlessIgnored() throws Exception {
        String article = "<article><h1>Kept words</h1><p>" + "Paragraph of real words for the reader. ".repeat(8)
                + "</p></article>";
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/meta", "/ours", "/header", "/others", "/paper.pdf")))
                    .stub("/meta", TestSite.html("<meta name=\"robots\" content=\"noindex\">" + article
                            + links("/from-noindex")))
                    .stub("/ours", TestSite.html("<meta name=\"LoomCrawl\" content=\"none\">" + article))
                    .stub("/header", TestSite.html(article).withHeader("X-Robots-Tag", "noarchive")
                            .withHeader("X-Robots-Tag", "noindex"))
                    .stub("/others", TestSite.html("<meta name=\"googlebot\" content=\"noindex\">" + article)
                            .withHeader("X-Robots-Tag", "otherbot: noindex"))
                    .stub("/paper.pdf", page("application/pdf", new byte[100]).withHeader("X-Robots-Tag", "noindex"))
                    .stub("/from-noindex", TestSite.html(article));
            CrawlConfigBuilder config = CrawlConfig.builder().seed(site.url("/")).content(ContentFormat.MARKDOWN)
                    .acceptType("application/pdf");

            Map<String, PageRecord> pages = crawl(site, config);

            for (String path : List.of("/meta", "/ours", "/header", "/paper.pdf")) {
                assertThat(pages.get(path).noindex()).as(path).isTrue();
            }
            for (String path : List.of("/meta", "/ours", "/header")) {
                assertThat(pages.get(path).content().text()).as(path).isEmpty();
                assertThat(pages.get(path).detail()).as(path).contains("noindex");
            }
            assertThat(pages.get("/others").noindex()).isFalse();
            assertThat(pages.get("/others").content().text()).contains("Kept words");
            assertThat(pages.get("/from-noindex").content().text()).as("noindex is not nofollow").contains("Kept words");
            assertThat(Export.rowOf(pages.get("/meta"))).containsEntry("noindex", true);

            Map<String, PageRecord> all = crawl(site, config.ignoreNoindex(true));
            assertThat(all.get("/meta").noindex()).isTrue();
            assertThat(all.get("/meta").content().text()).contains("Kept words");
            assertThat(all.get("/meta").detail()).isNull();
        }
    }

    @Test
    void nonHtmlIsRecordedWithTypeAndSizeNeverParsedAndKeptWhenAccepted() throws Exception {
        byte[] pdf = "%PDF-1.4 <a href=\"/inside-pdf\">".repeat(40).getBytes(StandardCharsets.ISO_8859_1);
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html(links("/paper.pdf", "/logo.png")))
                    .stub("/paper.pdf", page("application/pdf", pdf).withHeader("Link", "</papers/1>; rel=\"canonical\""))
                    .stub("/logo.png", page("image/png", new byte[777]));

            Map<String, PageRecord> skipped = crawl(site, CrawlConfig.builder().seed(site.url("/")));
            assertThat(skipped.get("/paper.pdf").outcome()).isEqualTo(Outcome.SKIPPED);
            assertThat(skipped.get("/paper.pdf").failure()).isEqualTo("not-html");
            assertThat(skipped.get("/paper.pdf").contentType()).isEqualTo("application/pdf");
            assertThat(skipped.get("/paper.pdf").bytes()).isEqualTo(pdf.length);
            assertThat(skipped.get("/logo.png").bytes()).isEqualTo(777);

            Map<String, PageRecord> kept = crawl(site, CrawlConfig.builder().seed(site.url("/"))
                    .acceptType("application/pdf").storeBody(true));
            assertThat(kept.get("/paper.pdf").outcome()).isEqualTo(Outcome.OK);
            assertThat(kept.get("/paper.pdf").status()).isEqualTo(200);
            assertThat(kept.get("/paper.pdf").bytes()).isEqualTo(pdf.length);
            assertThat(kept.get("/paper.pdf").canonical()).isEqualTo(site.url("/papers/1")); // its Link header's
            List<PageRecord> withBodies = new ArrayList<>();
            store.forEachPage(kept.get("/paper.pdf").jobId(), 0, 100, 200, true, withBodies::add);
            assertThat(withBodies).filteredOn(p -> p.url().endsWith(".pdf")).singleElement()
                    .satisfies(p -> assertThat(Arrays.equals(p.body(), pdf)).as("stored body").isTrue());
            assertThat(kept.get("/logo.png").failure()).isEqualTo("not-html");
            assertThat(site.counter.requests("/inside-pdf")).isZero(); // never parsed
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] deflate(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }
}
