package dev.loomcrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.sun.net.httpserver.HttpServer;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PinningWatch;
import dev.loomcrawl.testkit.TestSite;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Faults, rate limits and traps, against WireMock, in both modes. */
@ExtendWith(PinningWatch.class)
class ReliabilityTest {
    private static final AtomicLong DB = new AtomicLong();
    private PageStore store;
    private Crawler crawler;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:rel" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
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
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
    }

    /** A crawl that stores no page: the job fails, saying why, and its rows say the rest. */
    private Map<String, PageRecord> crawlWithNoPage(TestSite site, CrawlConfigBuilder config) throws InterruptedException {
        CrawlJob job = crawler.start(config.build());
        JobSummary summary = job.awaitSummary();
        assertThat(summary.status()).isEqualTo("failed");
        assertThat(job.failureMessage()).hasValueSatisfying(why -> assertThat(why).startsWith("no page could be fetched"));
        return store.pages(summary.jobId(), 0, 1_000, null).stream()
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
    }

    private static long millisBetween(long fromNanos, long toNanos) {
        return Duration.ofNanos(toNanos - fromNanos).toMillis();
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void retryAfterPausesTheHostNotTheJob(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite(); TestSite other = new TestSite()) {
            answersInTurn(site, "/limited", aResponse().withStatus(429).withHeader("Retry-After", "1"),
                    TestSite.html("<title>finally</title>"));
            // The other host's tree, 15 pages one at a time and 100 ms each, is found with /limited and lasts past
            // its rest, whichever starts first (its bare "/" alone, a 404, could come and go before /limited).
            site.stub("/", TestSite.html("<a href='/limited'>l</a><a href='/later'>x</a><a href='%s'>o</a>"
                    .formatted(other.url("/p/0"))));
            site.stub("/later", TestSite.html("<title>later</title>").withFixedDelay(0));
            other.tree(15, 100);

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).allowHost("*")
                    .perHostConcurrency(1).maxDepth(5).mode(mode));

            List<Long> limited = site.counter.arrivalsOf("/limited");
            assertThat(limited).hasSize(2);
            assertThat(millisBetween(limited.get(0), limited.get(1))).isGreaterThanOrEqualTo(1_000);
            assertThat(pages.get("/limited").title()).isEqualTo("finally");
            assertThat(pages.get("/limited").attempts()).isEqualTo(2);
            // The host rested: nothing else was asked of it in that second.
            site.counter.arrivals.stream().filter(a -> !a.getKey().equals("/limited"))
                    .filter(a -> a.getValue() > limited.get(0) && a.getValue() < limited.get(1))
                    .forEach(a -> assertThat(millisBetween(limited.get(0), a.getValue())).isGreaterThanOrEqualTo(1_000));
            // The job did not pause: the other host was crawled meanwhile.
            assertThat(other.counter.arrivals.stream().map(Map.Entry::getValue)
                    .filter(t -> t > limited.get(0) && t < limited.get(1))).isNotEmpty();
        }
    }

    /** A URL's attempts are its requests, whatever process made them: a 429 before a stop and a 200 after are 2. */
    @Test
    void attemptsCountOnAcrossARestart() throws Exception {
        try (TestSite site = new TestSite()) {
            answersInTurn(site, "/limited", aResponse().withStatus(429).withHeader("Retry-After", "1"),
                    TestSite.html("<title>finally</title>"));
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/limited")).respectRobots(false).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> site.counter.requests("/limited") == 1);
            crawler.suspend(Duration.ofSeconds(5)); // the 429 is handled within the grace, then the process stops
            assertThat(job.suspended()).isTrue();
            crawler.close();

            crawler = new Crawler(store);
            JobSummary summary = crawler.resume(job.id()).awaitSummary();
            assertThat(summary.pages()).isEqualTo(1);
            assertThat(site.counter.requests("/limited")).isEqualTo(2);
            assertThat(store.pages(job.id(), 0, 1, null).getFirst().attempts()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void retryableFailuresAreRetriedBoundedOthersNever(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='/down'>a</a><a href='/missing'>b</a><a href='/flaky'>c</a>"))
                    .stub("/down", aResponse().withStatus(503))
                    .stub("/missing", aResponse().withStatus(404));
            answersInTurn(site, "/flaky", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
                    TestSite.html("<title>flaky</title>"));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).maxRetries(2).mode(mode));

            assertThat(site.counter.requests("/down")).isEqualTo(3);
            assertThat(pages.get("/down").attempts()).isEqualTo(3);
            assertThat(pages.get("/down").failure()).isEqualTo("http-status");
            assertThat(site.counter.requests("/missing")).isEqualTo(1);
            // Reset once, then fine. (The JDK client may itself retry a GET whose pooled connection was
            // reset; either way the server saw two requests and the page is stored once.)
            assertThat(pages.get("/flaky").title()).isEqualTo("flaky");
            assertThat(site.counter.requests("/flaky")).isEqualTo(2);
            List<Long> down = site.counter.arrivalsOf("/down");
            assertThat(millisBetween(down.get(0), down.get(1))).isGreaterThanOrEqualTo(240); // 500 ms x jitter >= 0.5
            assertThat(millisBetween(down.get(1), down.get(2))).isGreaterThanOrEqualTo(490); // doubled
        }
    }

    /**
     * A server that says when to come back is asked again more often than one that just fails; still bounded. Each
     * URL on a host of its own: one host's failures in a row would rest it, with backoff, for seconds.
     */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void anAnswerWithRetryAfterHasThreeTimesTheRetries(ExecutionMode mode) throws Exception {
        try (TestSite busy = new TestSite(); TestSite always = new TestSite(); TestSite down = new TestSite()) {
            answersInTurn(busy, "/", 429, 429, 429, 200);
            always.stub("/", aResponse().withStatus(429).withHeader("Retry-After", "0"));
            down.stub("/", aResponse().withStatus(503));

            Map<String, PageRecord> pages = crawl(busy, CrawlConfig.builder().seed(busy.url("/")).seed(always.url("/"))
                    .seed(down.url("/")).respectRobots(false).maxRetries(1).perHostConcurrency(1).mode(mode));

            assertThat(pages.get("/").title()).isEqualTo("busy");
            assertThat(pages.get("/").attempts()).isEqualTo(4);
            assertThat(always.counter.requests("/")).isEqualTo(1 + 3);
            assertThat(pages.get(always.url("/")).failure()).isEqualTo("http-status");
            assertThat(down.counter.requests("/")).isEqualTo(1 + 1); // no Retry-After: the configured retries
        }
    }

    /**
     * A server's asking to be asked later costs its URL none of the retries its other failures have: a 503 after
     * two 429s is the URL's first failure (each URL on a host of its own, so that no host's run of failures rests it).
     */
    @Test
    void anAnswerWithRetryAfterCostsNoRetryOfAnotherFailure() throws Exception {
        try (TestSite busy = new TestSite(); TestSite broken = new TestSite()) {
            answersInTurn(busy, "/", 429, 429, 503, 200);
            answersInTurn(broken, "/", 429, 503, 503, 503, 200);

            crawl(busy, CrawlConfig.builder().seed(busy.url("/")).seed(broken.url("/")).respectRobots(false)
                    .maxRetries(1));

            assertThat(busy.counter.requests("/")).as("429, 429, 503, then its page").isEqualTo(4);
            assertThat(broken.counter.requests("/")).as("429, then a 503 and its one retry").isEqualTo(1 + 2);
        }
    }

    /** {@code path} answers {@code statuses} in turn (a 429 with {@code Retry-After: 0}, a 200 with a page), then its last. */
    private static void answersInTurn(TestSite site, String path, int... statuses) {
        answersInTurn(site, path, Arrays.stream(statuses).mapToObj(status -> switch (status) {
            case 200 -> TestSite.html("<title>busy</title>");
            case 429 -> aResponse().withStatus(429).withHeader("Retry-After", "0");
            default -> aResponse().withStatus(status);
        }).toArray(ResponseDefinitionBuilder[]::new));
    }

    /** {@code path} gives {@code answers} in turn, one a request, then its last for every request after. */
    private static void answersInTurn(TestSite site, String path, ResponseDefinitionBuilder... answers) {
        String state = STARTED;
        for (int i = 0; i < answers.length; i++) {
            String next = i == answers.length - 1 ? state : path + "#" + (i + 1);
            site.server.stubFor(get(urlPathEqualTo(path)).inScenario(path).whenScenarioStateIs(state)
                    .willReturn(answers[i]).willSetStateTo(next));
            state = next;
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aHostThatKeepsFailingIsGivenUp(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            StringBuilder links = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                links.append("<a href='/p").append(i).append("'>x</a>");
            }
            site.stub("/", TestSite.html(links.toString()));
            site.server.stubFor(get(urlPathMatching("/p.*")).willReturn(aResponse().withStatus(500)));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).maxRetries(0)
                    .hostFailureLimit(5).perHostConcurrency(1).mode(mode));

            assertThat(site.counter.pageRequests()).isEqualTo(1 + 5);
            assertThat(pages).hasSize(21);
            assertThat(pages.values().stream().filter(p -> p.detail() != null && p.detail().contains("given up")))
                    .hasSize(15).allSatisfy(p -> assertThat(p.failure()).isEqualTo("http-status"));
        }
    }

    /**
     * A healthy site's few broken pages: once its good pages are done, only their retries are left, all failing.
     * The host's run counts each URL once, so four of them rest the host 1.5 s at most; counting each
     * retry, the run grew to a dozen and rested the host up to 30 s between them (a crawl of 13-37 s, its pages'
     * part 0.1 s).
     */
    @Test
    void aHealthySitesFewBrokenPagesDoNotRestItForLong() throws Exception {
        try (TestSite site = new TestSite()) {
            StringBuilder links = new StringBuilder();
            for (int i = 0; i < 30; i++) {
                links.append("<a href='/p").append(i).append("'>x</a>");
            }
            for (int i = 0; i < 4; i++) {
                links.append("<a href='/broken").append(i).append("'>x</a>");
            }
            site.stub("/", TestSite.html(links.toString()));
            site.server.stubFor(get(urlPathMatching("/p.*")).willReturn(TestSite.html("<title>fine</title>")));
            site.server.stubFor(get(urlPathMatching("/broken.*")).willReturn(aResponse().withStatus(503)));

            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")));

            assertThat(pages).hasSize(35);
            for (int i = 0; i < 4; i++) {
                List<Long> asked = site.counter.arrivalsOf("/broken" + i);
                // its 2 retries, and one free try for each time its failure repeated another broken page's counted
                // one, on its way when that came back (FailureRun.repeats): each of the other three counts once
                assertThat(asked).as("/broken%d asked", i).hasSizeBetween(3, 6);
                for (int k = 1; k < asked.size(); k++) {
                    // its own backoff is at most 0.75 s, then 1.5 s; the host's rest after 3 or 4 URLs as long
                    // (RetryPolicy.backoff), each counted once: about 1.5 s apart at most (room here for a slow
                    // machine), where the former rule's gaps were 4.3 to 40 s
                    assertThat(Duration.ofNanos(asked.get(k) - asked.get(k - 1))).as("/broken%d, before try %d", i, k + 1)
                            .isLessThan(Duration.ofMillis(3_500));
                }
            }
        }
    }

    /**
     * A server down for a moment (its first 8 page requests answered 503) answers the 8 requests on their way
     * all at once: its trouble, counted once for the host and not against each URL, so no page is lost (each of
     * the 8 answers counted gave the host up at 5). A server of the JDK's, counting exactly, where WireMock's
     * scenarios race between concurrent requests.
     */
    @Test
    void aServerDownForAMomentLosesNoPage() throws Exception {
        StringBuilder links = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            links.append("<a href='/p").append(i).append("'>x</a>");
        }
        byte[] index = ("<title>index</title>" + links).getBytes(StandardCharsets.UTF_8);
        byte[] page = "<title>up</title>".getBytes(StandardCharsets.UTF_8);
        AtomicInteger down = new AtomicInteger(8);
        AtomicInteger pageRequests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            boolean isPage = exchange.getRequestURI().getPath().startsWith("/p");
            if (isPage) {
                pageRequests.incrementAndGet();
            }
            if (isPage && down.getAndDecrement() > 0) {
                exchange.sendResponseHeaders(503, -1);
            } else {
                byte[] body = isPage ? page : index;
                exchange.getResponseHeaders().set("Content-Type", "text/html");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        try {
            String site = "http://127.0.0.1:" + server.getAddress().getPort();
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site + "/").respectRobots(false).hostFailureLimit(5)
                    .build());
            JobSummary summary = job.awaitSummary();

            assertThat(store.pages(summary.jobId(), 0, 100, null)).hasSize(21)
                    .allSatisfy(p -> assertThat(p.failure()).as(p.url()).isNull());
            assertThat(pageRequests.get()).isEqualTo(20 + 8);
        } finally {
            server.stop(0);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aSlowDribbleIsCutAtTheDeadline(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='/dribble'>d</a>"))
                    .stub("/dribble", TestSite.html("<title>slow</title>" + "x".repeat(2_000)).withChunkedDribbleDelay(50, 4_000));
            long start = System.nanoTime();
            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/"))
                    .fetchDeadline(Duration.ofMillis(800)).mode(mode));
            assertThat(pages.get("/dribble").failure()).isEqualTo("timeout");
            assertThat(pages.get("/dribble").detail()).contains("800 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3_000));
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void redirectLoopsAndLongChainsStop(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='/a'>a</a><a href='/r1'>r</a>"))
                    .stub("/a", aResponse().withStatus(302).withHeader("Location", "/b"))
                    .stub("/b", aResponse().withStatus(302).withHeader("Location", "/a#again"));
            for (int i = 1; i <= 10; i++) {
                site.stub("/r" + i, aResponse().withStatus(301).withHeader("Location", "/r" + (i + 1)));
            }
            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/")).maxRedirects(3).mode(mode));
            assertThat(site.counter.requests("/a")).isEqualTo(1);
            assertThat(site.counter.requests("/b")).isEqualTo(1);
            assertThat(pages).containsKeys("/r1", "/r2", "/r3", "/r4").doesNotContainKey("/r5");
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aSelfReferentialTrapStopsWithoutGrowing(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            // Every page links to 'next/' relative to itself: /t/next/, /t/next/next/, ... forever.
            site.server.stubFor(get(urlPathMatching("/t/.*")).willReturn(TestSite.html("<a href='next/'>n</a>")));
            Map<String, PageRecord> pages = crawl(site, CrawlConfig.builder().seed(site.url("/t/")).maxDepth(50).mode(mode));
            assertThat(pages).containsOnlyKeys("/t/", "/t/next/", "/t/next/next/");
        }
    }

    @Test
    void privateAddressesCanBeRefused() throws Exception {
        try (TestSite site = new TestSite().tree(3, 0)) {
            Map<String, PageRecord> pages = crawlWithNoPage(site, CrawlConfig.builder().seed(site.url("/p/0"))
                    .refusePrivateAddresses(true).respectRobots(false));
            assertThat(pages.get("/p/0").failure()).isEqualTo("connect");
            assertThat(pages.get("/p/0").detail()).contains("private address 127.0.0.1");
            assertThat(pages.get("/p/0").attempts()).isEqualTo(1); // refused for good: never retried
            assertThat(site.counter.total.get()).isZero();
        }
    }

    @Test
    void aRefusedPrivateAddressFailsAtOnceAsConnectNotAsRobots() throws Exception {
        try (TestSite site = new TestSite().tree(3, 0)) {
            long start = System.nanoTime();
            Map<String, PageRecord> pages = crawlWithNoPage(site, CrawlConfig.builder().seed(site.url("/p/0"))
                    .refusePrivateAddresses(true));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2)); // no robots retries
            assertThat(pages.get("/p/0").failure()).isEqualTo("connect");
            assertThat(pages.get("/p/0").detail()).contains("private address 127.0.0.1");
            assertThat(site.counter.total.get()).isZero();
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            120                            | PT2M
            0                              | PT0S
            Wed, 21 Oct 2015 07:28:30 GMT  | PT30S
            Wed, 21 Oct 2015 07:27:00 GMT  | PT0S
            soon                           |
            -5                             |
            007                            | PT7S
            99999999999999999999999        | PT2562047H47M16S
            """)
    void retryAfterIsSecondsOrAnHttpDate(String header, Duration expected) {
        ZonedDateTime now = ZonedDateTime.parse("Wed, 21 Oct 2015 07:28:00 GMT", DateTimeFormatter.RFC_1123_DATE_TIME)
                .withZoneSameInstant(ZoneOffset.UTC);
        assertThat(RetryPolicy.parseRetryAfter(header, now)).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aSuspendedJobResumesWithNothingLostOrFetchedTwice(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite().tree(255, 50)) {
            CrawlConfig config = CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(4)
                    .mode(mode).poolSize(8).build();
            CrawlJob first = crawler.start(config);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> first.progress().pages() >= 40);
            crawler.suspend(Duration.ofSeconds(10));
            assertThat(store.jobs().find(first.id()).orElseThrow().status()).isEqualTo("suspended"); // left to resume
            long storedBefore = store.countPages(first.id(), null);
            assertThat(storedBefore).isBetween(40L, 254L);

            try (Crawler restarted = new Crawler(store)) {
                JobSummary summary = restarted.resume(first.id()).awaitSummary();
                assertThat(summary.status()).isEqualTo("done");
                assertThat(summary.pages()).isEqualTo(255);
                assertThat(summary.runs()).isEqualTo(2);
                assertThat(summary.statuses()).containsEntry("200", 255L); // the whole job, not the last run
            }
            assertThat(store.countPages(first.id(), 200)).isEqualTo(255);
            assertThat(site.counter.pageDuplicates()).isZero(); // a graceful stop finishes what it started
            assertThat(site.counter.maxInFlight.get()).isLessThanOrEqualTo(4);
        }
    }

    /** A name DNS does not know is given up at once, every URL of it recorded: no minutes of robots retries. */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aHostDnsDoesNotKnowIsGivenUpAtOnce(ExecutionMode mode) throws Exception {
        long start = System.nanoTime();
        CrawlJob job = crawler.start(CrawlConfig.builder().seed("http://no-such-host.invalid/").seed(
                "http://no-such-host.invalid/other").mode(mode).build());
        JobSummary summary = job.awaitSummary();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(summary.failures()).containsEntry("connect", 2L);
        assertThat(summary.topFailures().getFirst().detail()).contains("unknown host");
        assertThat(summary.pages()).isZero();
    }
}
