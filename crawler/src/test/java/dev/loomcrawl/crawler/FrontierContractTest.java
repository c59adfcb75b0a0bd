package dev.loomcrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static dev.loomcrawl.testkit.TestSite.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PostgresServer;
import dev.loomcrawl.testkit.TestSite;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The frontier's rules, the same tests on both of its backends: one process ({@code MemoryBackend}, results
 * in H2) and a cluster node ({@code ClusterBackend}, URLs and results in PostgreSQL). Whole jobs against a
 * real site, each rule checked where the server sees it.
 */
class FrontierContractTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();
    private static final AtomicLong DB = new AtomicLong();

    enum Backend {
        MEMORY, CLUSTER;

        String newDatabase() {
            return this == MEMORY ? "jdbc:h2:mem:contract" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1"
                    : postgres.newDatabase();
        }
    }

    private Backend backend;
    private String db;
    private PageStore store;
    private Crawler crawler;
    private ClusterNode node;
    private Jobs jobs;

    private Crawler open(Backend backend) {
        this.backend = backend;
        db = backend.newDatabase();
        store = PageStore.open(db);
        crawler = node(store, "a");
        return crawler;
    }

    /** A crawler, and on a cluster a node around it: {@link #jobs} starts and cancels through the node. */
    private Crawler node(PageStore on, String nodeId) {
        Crawler c = new Crawler(on, new CrawlerOptions(8, 10_000, true));
        node = backend == Backend.CLUSTER ? ClusterNode.join(c, new NodeSettings(nodeId, null,
                Duration.ofSeconds(6))) : null;
        jobs = node != null ? node : c;
        return c;
    }

    /** Closes the node (its shares suspended, its hosts given back), then the crawler. */
    private void closeCrawler() {
        if (node != null) {
            node.close();
            node = null;
        }
        crawler.close();
    }

    @AfterEach
    void close() {
        if (crawler != null) {
            closeCrawler();
        }
        if (store != null) {
            store.close();
        }
    }

    /** A fetch must fit in a cluster node's hold on its host (6 s here, less a margin). */
    private static CrawlConfigBuilder config() {
        return CrawlConfig.builder().fetchDeadline(Duration.ofSeconds(3));
    }

    /** Runs a job to its end; its stored rows by path. */
    private Map<String, PageRecord> crawl(TestSite site, CrawlConfigBuilder config) throws InterruptedException {
        CrawlJob job = jobs.start(config.build());
        awaitEnd(job.id());
        return stored(site, job.id());
    }

    private void awaitEnd(long id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> !store.jobs().find(id).orElseThrow().unfinished());
    }

    private Map<String, PageRecord> stored(TestSite site, long id) {
        return store.pages(id, 0, 10_000, null).stream()
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
    }

    private static String links(String... paths) {
        return "<html><body>" + Arrays.stream(paths).map(p -> "<a href=\"" + p + "\">x</a>")
                .collect(Collectors.joining(" ")) + "</body></html>";
    }

    /**
     * A fast chain reaches p at depth 4 and q at 5; a slow page links p at depth 2. The slow path comes in
     * last, yet p and q end at their shortest depths: lowered in the store, or (past the limit) admitted then.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void eachUrlOnceAtItsShortestDepth(Backend backend) throws Exception {
        for (int maxDepth : new int[] {10, 3}) {
            open(backend);
            try (TestSite site = new TestSite()) {
                site.stub("/s", html(links("/a", "/t"))).stub("/a", html(links("/b"))).stub("/b", html(links("/c")))
                        .stub("/c", html(links("/p"))).stub("/p", html(links("/q"))).stub("/q", html(links()))
                        .stub("/t", html(links("/p")).withFixedDelay(2_000));
                Map<String, PageRecord> pages = crawl(site, config().seed(site.url("/s")).maxDepth(maxDepth));
                assertThat(pages).hasSize(7);
                assertThat(pages.get("/p").depth()).as("p, max depth %d", maxDepth).isEqualTo(2);
                assertThat(pages.get("/q").depth()).as("q, max depth %d", maxDepth).isEqualTo(3);
                assertThat(pages.get("/c").depth()).isEqualTo(3);
                assertThat(site.counter.pageDuplicates()).isZero();
            }
            close();
        }
        crawler = null;
        store = null;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void noHostAboveItsLimit(Backend backend) throws Exception {
        open(backend);
        try (TestSite site = new TestSite().tree(40, 100)) {
            Map<String, PageRecord> pages = crawl(site, config().seed(site.url("/p/0")).maxDepth(10)
                    .perHostConcurrency(3));
            assertThat(pages.values()).filteredOn(p -> p.status() == 200).hasSize(40);
            assertThat(site.counter.maxInFlight.get()).isEqualTo(3);
            assertThat(site.counter.pageDuplicates()).isZero();
        }
    }

    /**
     * Links robots.txt forbids are recorded on sight, each once: two pages link to /private/x, and /ok to 2,500
     * more: more rows than one insert of a cluster node takes (PostgreSQL binds at most 65,535 parameters).
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void robotsTxtRulesOnSight(Backend backend) throws Exception {
        open(backend);
        String[] many = IntStream.range(0, 2_500).mapToObj(i -> "/private/n" + i).toArray(String[]::new);
        String[] ok = Stream.concat(Stream.of("/private/y", "/private/x"),
                Arrays.stream(many)).toArray(String[]::new);
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                            .withBody("User-agent: *\nDisallow: /private\n"))
                    .stub("/s", html(links("/private/x", "/ok"))).stub("/ok", html(links(ok)))
                    .stub("/private/x", html(links())).stub("/private/y", html(links()));
            CrawlJob job = jobs.start(config().seed(site.url("/s")).maxDepth(5).build());
            awaitEnd(job.id());
            Map<String, PageRecord> pages = stored(site, job.id());
            assertThat(site.counter.requests("/private/x") + site.counter.requests("/private/y")).isZero();
            assertThat(site.counter.requests("/robots.txt")).isEqualTo(1);
            assertThat(pages.get("/private/x").failure()).isEqualTo(FailureKind.ROBOTS.label());
            assertThat(pages.get("/private/y").failure()).isEqualTo(FailureKind.ROBOTS.label());
            assertThat(pages.get("/ok").status()).isEqualTo(200);
            assertThat(pages).hasSize(2_504).containsKey("/private/n2499");
            // The job's figures and its node's share count each row once.
            JobReport report = jobs.report(job.id()).orElseThrow();
            assertThat(report.progress()).extracting(JobProgress::pages, JobProgress::skipped).containsExactly(2L, 2_502L);
            if (report.nodes() != null) {
                assertThat(report.nodes()).singleElement().extracting(JobReport.Share::pages, JobReport.Share::skipped)
                        .containsExactly(2L, 2_502L);
            }
        }
    }

    /** A 503 with Retry-After: 1 rests the whole host a second, then the URL is tried again and stored once. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void retryAfterRestsTheHostThenTheUrlIsRetried(Backend backend) throws Exception {
        open(backend);
        try (TestSite site = new TestSite()) {
            site.server.stubFor(get(urlPathEqualTo("/r")).inScenario("r").whenScenarioStateIs(STARTED)
                    .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")).willSetStateTo("well"));
            site.server.stubFor(get(urlPathEqualTo("/r")).inScenario("r").whenScenarioStateIs("well")
                    .willReturn(html(links())));
            site.stub("/s", html(links("/r", "/o1", "/o2", "/o3")));
            for (String o : List.of("/o1", "/o2", "/o3")) {
                site.stub(o, html(links()).withFixedDelay(200));
            }
            Map<String, PageRecord> pages = crawl(site, config().seed(site.url("/s")).maxDepth(3)
                    .perHostConcurrency(1));
            assertThat(pages.get("/r").status()).isEqualTo(200);
            assertThat(pages.get("/r").attempts()).isEqualTo(2);
            long refused = site.counter.arrivalsOf("/r").getFirst();
            List<Long> after = site.counter.arrivals.stream().map(Map.Entry::getValue).filter(t -> t > refused).toList();
            assertThat(after).isNotEmpty().allSatisfy(t -> assertThat(Duration.ofNanos(t - refused))
                    .isGreaterThan(Duration.ofMillis(950)));
            assertThat(site.counter.pageDuplicates()).isEqualTo(1); // /r, asked again as told
        }
    }

    /** A job stopped gracefully and taken up again (a resumed job; a node leaving, another taking over). */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aSuspendedJobGoesOnWithNothingLostOrFetchedTwice(Backend backend) throws Exception {
        open(backend);
        try (TestSite site = new TestSite().tree(120, 100)) {
            CrawlJob job = jobs.start(config().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(4)
                    .build());
            await().atMost(Duration.ofSeconds(30)).until(() -> store.countPages(job.id(), 200) >= 20);
            if (backend == Backend.MEMORY) {
                jobs.suspend(Duration.ofSeconds(10));
                assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("suspended");
                closeCrawler();
                crawler = node(store, "a");
                crawler.resume(job.id());
            } else {
                closeCrawler(); // this node's share ends gracefully; the job stays running for the cluster
                assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("running");
                crawler = node(store, "b");
            }
            long before = store.countPages(job.id(), 200);
            assertThat(before).isBetween(20L, 119L);
            awaitEnd(job.id());
            assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("done");
            assertThat(store.countPages(job.id(), 200)).isEqualTo(120);
            assertThat(site.counter.pageDuplicates()).isZero();
            assertThat(site.counter.maxInFlight.get()).isLessThanOrEqualTo(4);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aCancelledJobStopsAndStoresNothingMore(Backend backend) throws Exception {
        open(backend);
        try (TestSite site = new TestSite().tree(200, 150)) {
            CrawlJob job = jobs.start(config().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(2)
                    .build());
            await().atMost(Duration.ofSeconds(30)).until(() -> store.countPages(job.id(), 200) >= 5);
            assertThat(jobs.cancel(job.id())).isTrue();
            assertThat(job.await(Duration.ofSeconds(20))).isTrue();
            long stored = store.countPages(job.id(), null);
            int asked = site.counter.pageRequests();
            assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("cancelled");
            assertThat(stored).isBetween(5L, 150L);
            assertThat((long) asked).isBetween(stored, stored + 2); // what was in flight at the cancel, at most
            assertThat(site.counter.pageRequests()).isEqualTo(asked);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void thePageLimitHolds(Backend backend) throws Exception {
        open(backend);
        try (TestSite site = new TestSite().tree(100, 0)) {
            Map<String, PageRecord> pages = crawl(site, config().seed(site.url("/p/0")).maxDepth(10)
                    .maxPages(10));
            assertThat(pages).hasSize(10);
            assertThat(site.counter.pageRequests()).isEqualTo(10);
        }
    }
}
