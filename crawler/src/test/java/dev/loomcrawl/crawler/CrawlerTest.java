package dev.loomcrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.http.Fault;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.PolitenessKey;
import dev.loomcrawl.testkit.PinningWatch;
import dev.loomcrawl.testkit.TestSite;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(PinningWatch.class)
class CrawlerTest {
    private static final AtomicLong DB = new AtomicLong();

    private PageStore store;
    private Crawler crawler;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:crawler" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        // The process allows many per host: these tests set each job's own limit, up to 50.
        // Fixed per-host limits: these tests count requests in flight; adaptive politeness has its own (PolitenessTest).
        crawler = new Crawler(store, new CrawlerOptions(64, 10_000, true, PolitenessKey.HOST, false));
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
    }

    private JobSummary crawl(CrawlConfigBuilder config) throws InterruptedException {
        CrawlJob job = crawler.start(config.build());
        JobSummary summary = job.awaitSummary();
        assertThat(job.failureMessage()).isEmpty();
        return summary;
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void crawlsEveryPageOnceWithoutExceedingThePerHostLimit(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite().tree(63, 40)) {
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10)
                    .perHostConcurrency(3).mode(mode).poolSize(16));

            assertThat(summary.pages()).isEqualTo(63);
            assertThat(summary.failed()).isZero();
            assertThat(site.counter.pageRequests()).isEqualTo(63);
            assertThat(site.counter.requests("/robots.txt")).isEqualTo(1);
            assertThat(site.counter.duplicates()).isZero();
            // Counted at the server: the limit is used to the full and never exceeded.
            assertThat(site.counter.maxInFlight.get()).isEqualTo(3);
            assertThat(store.countPages(summary.jobId(), 200)).isEqualTo(63);
            assertThat(store.pages(summary.jobId(), 0, 1, null).getFirst().thread())
                    .startsWith(mode == ExecutionMode.VIRTUAL ? "crawl-vt-" : "crawl-pool-");
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void perHostLimitIsPerHost(ExecutionMode mode) throws Exception {
        try (TestSite a = new TestSite().tree(40, 40); TestSite b = new TestSite().tree(40, 40)) {
            JobSummary summary = crawl(CrawlConfig.builder().seed(a.url("/p/0")).seed(b.url("/p/0"))
                    .maxDepth(10).perHostConcurrency(2).mode(mode));

            assertThat(summary.pages()).isEqualTo(80);
            assertThat(a.counter.maxInFlight.get()).isEqualTo(2);
            assertThat(b.counter.maxInFlight.get()).isEqualTo(2);
            assertThat(a.counter.duplicates() + b.counter.duplicates()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void depthLimitStopsAtTheGivenDepth(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite().tree(63, 0)) {
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(2).mode(mode));

            assertThat(summary.pages()).isEqualTo(7); // 1 + 2 + 4
            assertThat(site.counter.requestsByPath.keySet())
                    .containsExactlyInAnyOrder("/robots.txt", "/p/0", "/p/1", "/p/2", "/p/3", "/p/4", "/p/5", "/p/6");
            assertThat(store.pages(summary.jobId(), 0, 100, null)).extracting(PageRecord::depth)
                    .containsOnly(0, 1, 2);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void pageLimitCapsFetches(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite().tree(63, 5)) {
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).maxPages(10)
                    .mode(mode));

            assertThat(summary.pages()).isEqualTo(10);
            assertThat(site.counter.pageRequests()).isEqualTo(10);
        }
    }

    @Test
    void bothModesStoreTheSamePages() throws Exception {
        try (TestSite site = new TestSite().tree(100, 5)) {
            Map<ExecutionMode, Set<String>> stored = new java.util.EnumMap<>(ExecutionMode.class);
            for (ExecutionMode mode : ExecutionMode.values()) {
                JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(4).mode(mode));
                stored.put(mode, store.pages(summary.jobId(), 0, 1_000, null).stream()
                        .map(p -> p.url() + " " + p.depth() + " " + p.title()).collect(Collectors.toSet()));
            }
            assertThat(stored.get(ExecutionMode.VIRTUAL)).hasSize(31).isEqualTo(stored.get(ExecutionMode.POOL));
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void failuresAreStoredWithReasonsAndDoNotStopTheJob(ExecutionMode mode) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // Each URL that keeps failing on a host of its own, so that each is asked its three times: on one host,
        // requests failing together repeat one another's trouble and are retried without charge (FailureRun).
        try (TestSite site = new TestSite(); TestSite error = new TestSite(); TestSite reset = new TestSite();
                TestSite garbage = new TestSite(); TestSite slow = new TestSite()) {
            String refused = "http://127.0.0.1:" + closedPort + "/gone";
            site.stub("/", TestSite.html("""
                            <title>Index</title>
                            <a href="/missing">a</a><a href="%s">b</a><a href="/image.png">c</a>
                            <a href="%s">d</a><a href="%s">e</a><a href="/moved">f</a><a href="/big">g</a>
                            <a href="%s">h</a><a href="%s">i</a>""".formatted(error.url("/error"), reset.url("/reset"),
                            slow.url("/slow"), garbage.url("/garbage"), refused)))
                    .stub("/missing", aResponse().withStatus(404))
                    .stub("/image.png", aResponse().withStatus(200).withHeader("Content-Type", "image/png")
                            .withBody(new byte[] {1, 2, 3}))
                    .stub("/moved", aResponse().withStatus(301).withHeader("Location", "/target#frag"))
                    .stub("/target", TestSite.html("<title>Target</title>"))
                    .stub("/big", TestSite.html("<title>big</title>" + "x".repeat(5_000)));
            error.stub("/error", aResponse().withStatus(503));
            reset.stub("/reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));
            garbage.stub("/garbage", aResponse().withFault(Fault.RANDOM_DATA_THEN_CLOSE));
            slow.stub("/slow", TestSite.html("<title>late</title>").withFixedDelay(3_000));

            // Without robots: an unreachable host's robots.txt would (rightly) disallow it, not fail to connect.
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).allowHost("*")
                    .requestTimeout(Duration.ofMillis(500)).maxBodyBytes(2_048).respectRobots(false).mode(mode));

            Map<String, PageRecord> byPath = store.pages(summary.jobId(), 0, 100, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replaceFirst("http://127.0.0.1:\\d+", ""), p -> p));
            assertThat(byPath.get("/missing").failure()).isEqualTo("http-status");
            assertThat(byPath.get("/missing").status()).isEqualTo(404);
            assertThat(byPath.get("/error").failure()).isEqualTo("http-status");
            assertThat(byPath.get("/image.png").failure()).isEqualTo("not-html");
            assertThat(byPath.get("/image.png").outcome()).isEqualTo(Outcome.SKIPPED);
            assertThat(byPath.get("/image.png").contentType()).isEqualTo("image/png");
            assertThat(byPath.get("/image.png").bytes()).isEqualTo(3);
            assertThat(byPath.get("/reset").failure()).isEqualTo("reset");
            // Garbage, then the connection closed: the JDK's chain ends in an EOFException, so a reset (by type).
            assertThat(byPath.get("/garbage").failure()).as(byPath.get("/garbage").detail()).isEqualTo("reset");
            assertThat(byPath.get("/slow").failure()).isEqualTo("timeout");
            // An HTML page over the body limit is kept cut there, as search engines read one; its row says so
            assertThat(byPath.get("/big").ok()).isTrue();
            assertThat(byPath.get("/big").title()).isEqualTo("big");
            assertThat(byPath.get("/big").bytes()).isEqualTo(2_048);
            assertThat(byPath.get("/big").detail()).isEqualTo("cut at 2048 bytes: the body limit");
            assertThat(byPath.get("/gone").failure()).isEqualTo("connect");
            assertThat(byPath.get("/moved").status()).isEqualTo(301);
            assertThat(byPath.get("/moved").ok()).isTrue();
            assertThat(byPath.get("/target").title()).isEqualTo("Target");
            assertThat(byPath.get("/").title()).isEqualTo("Index");
            assertThat(summary.pages()).isEqualTo(4); // index, redirect, target, big
            assertThat(summary.failed()).isEqualTo(6);
            assertThat(summary.skipped()).isEqualTo(1); // the image: recorded with its type and size, not kept
            assertThat(summary.failures()).containsEntry("http-status", 2L).containsEntry("timeout", 1L);
            assertThat(summary.statuses()).doesNotContainKey("0"); // no response is no status
            // A timeout may be our own queueing: retried as a 5xx is
            assertThat(byPath.get("/slow").attempts()).isEqualTo(3);
            assertThat(byPath.get("/error").attempts()).isEqualTo(3);
            assertThat(summary.status()).isEqualTo("done");
        }
    }

    /** A robots.txt on the wire is a request in flight: a crawl waiting for it is not idle, nor busy storing. */
    @Test
    void aRobotsTxtOnTheWireCountsAsInFlight() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", TestSite.html("").withFixedDelay(20_000));
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> site.counter.requests("/robots.txt") == 1);
            await().atMost(Duration.ofSeconds(5)).until(() -> job.progress().fetching() == 1);
            assertThat(job.progress().inFlight()).isEqualTo(1);
            assertThat(crawler.cancel(job.id())).isTrue();
            assertThat(job.await(Duration.ofSeconds(5))).isTrue();
            assertThat(job.progress().fetching()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void cancelStopsPromptlyAndKeepsWhatWasStored(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.tree(1, 0); // a fast root that links to /p/1 and /p/2 ... which are slow:
            StringBuilder links = new StringBuilder("<title>root</title>");
            for (int i = 1; i <= 200; i++) {
                links.append("<a href=\"/slow/").append(i).append("\">s</a>");
                site.stub("/slow/" + i, TestSite.html("<title>slow</title>").withFixedDelay(20_000));
            }
            site.stub("/p/0", TestSite.html(links.toString()));

            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).perHostConcurrency(50)
                    .requestTimeout(Duration.ofSeconds(60)).mode(mode).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> job.progress().fetching() == 50);

            long start = System.nanoTime();
            assertThat(crawler.cancel(job.id())).isTrue();
            assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("cancelled"); // durable at once
            assertThat(job.await(Duration.ofSeconds(5))).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(crawler.cancel(job.id())).isFalse(); // idempotent: it had ended

            assertThat(job.status()).isEqualTo(JobStatus.CANCELLED);
            assertThat(store.jobs().find(job.id()).orElseThrow().status()).isEqualTo("cancelled");
            List<PageRecord> pages = store.pages(job.id(), 0, 10, null);
            assertThat(pages).extracting(PageRecord::title).containsExactly("root");
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void robotsTxtIsHonouredAndDisallowedUrlsAreRecordedUnfetched(ExecutionMode mode) throws Exception {
        try (TestSite everyone = new TestSite(); TestSite specific = new TestSite()) {
            everyone.stub("/robots.txt", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                            .withBody("User-agent: *\nDisallow: /private/\n"))
                    .stub("/", TestSite.html("<a href='/private/a'>x</a><a href='/ok'>z</a><a href='%s'>y</a>"
                            .formatted(specific.url("/"))))
                    .stub("/ok", TestSite.html("<title>ok</title>"));
            // RFC 9309: the group naming our agent replaces the '*' group, so /private/ is allowed here.
            specific.stub("/robots.txt", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                            .withBody("User-agent: *\nDisallow: /private/\n\nUser-agent: loomcrawl\nDisallow: /no-loom\n"))
                    .stub("/", TestSite.html("<a href='/private/b'>x</a><a href='/no-loom'>y</a>"))
                    .stub("/private/b", TestSite.html("<title>b</title>"));

            JobSummary summary = crawl(CrawlConfig.builder().seed(everyone.url("/")).allowHost("*").mode(mode));

            assertThat(everyone.counter.requestsByPath.keySet()).containsExactlyInAnyOrder("/robots.txt", "/", "/ok");
            assertThat(specific.counter.requestsByPath.keySet())
                    .containsExactlyInAnyOrder("/robots.txt", "/", "/private/b");
            assertThat(summary.skips()).containsEntry("robots", 2L);
            assertThat(summary.failed()).isZero(); // skipped on purpose is not failed
            assertThat(store.pages(summary.jobId(), 0, 10, null)).filteredOn(p -> p.outcome() == Outcome.SKIPPED)
                    .extracting(PageRecord::url)
                    .containsExactlyInAnyOrder(everyone.url("/private/a"), specific.url("/no-loom"));
            // the audit counts every refusal, links recorded on sight included
            assertThat(store.politeness().audit(summary.jobId()).stream()
                    .mapToLong(dev.loomcrawl.crawler.values.KeyAudit::robotsDisallowed).sum())
                    .isEqualTo(2);
        }
    }

    /** The first progress a job gives counts its rate from its start (it said 0 requests/s after a dozen pages). */
    @Test
    void theFirstProgressHasARate() throws Exception {
        try (TestSite site = new TestSite().tree(63, 50)) {
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(2)
                    .respectRobots(false).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> site.counter.total.get() >= 20);
            assertThat(job.progress().recentPagesPerSecond()).isPositive(); // the first call of progress()
            job.awaitSummary();
        }
    }

    /** A redirect loop is a failure of the URL that closes it, not two ordinary redirect rows. */
    @Test
    void aRedirectLoopIsStoredAsAFailure() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='/a'>a</a><a href='/self'>s</a>"))
                    .stub("/a", aResponse().withStatus(302).withHeader("Location", "/b"))
                    .stub("/b", aResponse().withStatus(302).withHeader("Location", "/a"))
                    .stub("/self", aResponse().withStatus(301).withHeader("Location", "/self"));
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).respectRobots(false));
            Map<String, PageRecord> rows = store.pages(summary.jobId(), 0, 10, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
            assertThat(rows.get("/a").failure()).isNull(); // a redirect, followed
            assertThat(rows.get("/b").failure()).isEqualTo("redirect-loop");
            assertThat(rows.get("/self").failure()).isEqualTo("redirect-loop");
            assertThat(summary.failures()).containsEntry("redirect-loop", 2L);
        }
    }

    /** A redirect the crawler will not follow says why, and never repeats a password its Location carries. */
    @Test
    void aRedirectNotFollowedSaysWhyWithoutItsPassword() throws Exception {
        try (TestSite site = new TestSite()) {
            String secret = site.url("/after").replace("http://", "http://admin:s3cret@");
            site.stub("/", TestSite.html("<a href='/secret'>s</a><a href='/ftp'>f</a><a href='/long'>l</a>"))
                    .stub("/secret", aResponse().withStatus(301).withHeader("Location", secret))
                    .stub("/ftp", aResponse().withStatus(301).withHeader("Location", "ftp://admin:s3cret@x.test/"))
                    .stub("/long", aResponse().withStatus(301).withHeader("Location", "/" + "L".repeat(5_000)));
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).respectRobots(false));
            Map<String, PageRecord> rows = store.pages(summary.jobId(), 0, 10, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
            assertThat(rows).containsOnlyKeys("/", "/secret", "/ftp", "/long");
            assertThat(rows.get("/secret").detail()).isEqualTo("redirect not followed: URL must not carry credentials: "
                    + "'http://…@127.0.0.1/…'");
            assertThat(rows.get("/ftp").detail()).isEqualTo("redirect not followed: URL must be http or https: "
                    + "'ftp://admin:***@x.test/'");
            assertThat(rows.get("/long").detail()).isEqualTo("redirect not followed: URL is longer than 2048 characters");
        }
    }

    /**
     * A deny pattern that backtracks exponentially in java.util.regex ({@code (a+)+$} against 40 a's and a
     * final character that fails it: about 2^40 steps) matches in linear time, so the crawl ends at once.
     */
    @Test
    void aCatastrophicDenyPatternRunsInLinearTime() throws Exception {
        String tail = "/" + "a".repeat(40) + "!";
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='" + tail + "'>x</a><a href='/aaaa'>y</a>"))
                    .stub(tail, TestSite.html("<title>t</title>")).stub("/aaaa", TestSite.html("<title>d</title>"));
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).denyPattern("(a+)+$")
                    .respectRobots(false));
            assertThat(site.counter.requestsByPath.keySet()).containsExactlyInAnyOrder("/", tail); // /aaaa denied
            assertThat(summary.pages()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void unreachableRobotsTxtIsRetriedWithBackoffThenTheHostIsGivenUp(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", aResponse().withStatus(503))
                    .stub("/", TestSite.html("<title>never</title>"));

            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).robotsRetryFor(Duration.ofMillis(2_500))
                    .mode(mode).build());
            JobSummary summary = job.awaitSummary();
            // no page at all: the job failed, and says why
            assertThat(summary.status()).isEqualTo("failed");
            assertThat(job.failureMessage()).hasValueSatisfying(why -> assertThat(why)
                    .startsWith("no page could be fetched").contains("robots.txt unreachable"));

            // 1 s, then what is left of the 2.5 s: three tries, and no page of the host is asked meanwhile.
            assertThat(site.counter.requests("/robots.txt")).isEqualTo(3);
            List<Long> tries = site.counter.arrivalsOf("/robots.txt");
            assertThat(Duration.ofNanos(tries.get(1) - tries.get(0))).isGreaterThanOrEqualTo(Duration.ofMillis(950));
            assertThat(site.counter.requests("/")).isZero();
            assertThat(summary.failures()).containsEntry("http-status", 1L);
            assertThat(summary.hostsGivenUp()).hasSize(1);
            assertThat(store.pages(summary.jobId(), 0, 1, null).getFirst().detail())
                    .contains("robots.txt unreachable for").contains("HTTP 503");
        }
    }

    /** While a host's robots.txt fails, the job says which host waits and why (it looked idle for minutes). */
    @Test
    void aHostWaitingForItsRobotsTxtIsSaid() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", aResponse().withStatus(503));
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).build());
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !job.waits().waiting().isEmpty());
            assertThat(job.waits().waiting()).hasEntrySatisfying(CrawlUrl.of(site.url("/")).hostKey(),
                    why -> assertThat(why).contains("robots.txt").contains("503").contains("try 2"));
            crawler.cancel(job.id());
        }
    }

    /**
     * A host resting for its server's {@code Retry-After} is said with how long is left, while its other URLs wait:
     * a crawl with nothing on the wire for minutes looked idle, with an ETA of seconds.
     */
    @Test
    void aHostRestingForItsServersRetryAfterIsSaid() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<a href='/busy'>b</a> <a href='/later'>l</a>"));
            site.stub("/busy", aResponse().withStatus(429).withHeader("Retry-After", "120"));
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).perHostConcurrency(1).build());
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !job.waits().waiting().isEmpty());
            assertThat(job.waits().waiting()).hasEntrySatisfying(CrawlUrl.of(site.url("/")).hostKey(),
                    why -> assertThat(why).matches("Retry-After: resting 1 min [0-9]+ s more|Retry-After: resting 2 min 0 s more"));
            assertThat(job.progress().fetching()).isZero();
            crawler.cancel(job.id());
        }
    }

    /** A host that refuses every connection is given up after a few tries, not after minutes of 5xx patience. */
    @Test
    void aHostRefusingEveryConnectionIsGivenUpInSeconds() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort(); // free again once closed: nothing listens there
        }
        CrawlJob job = crawler.start(CrawlConfig.builder().seed("http://127.0.0.1:" + closedPort + "/").build());
        assertThat(job.await(Duration.ofSeconds(20))).as("given up within 20 s, not the 2 min a 5xx gets").isTrue();
        JobSummary summary = job.awaitSummary();
        assertThat(summary.failed()).isEqualTo(1);
        assertThat(summary.hostsGivenUp()).hasSize(1);
        assertThat(store.pages(summary.jobId(), 0, 1, null).getFirst().detail())
                .contains("no connection to robots.txt").contains("3 tries");
    }

    /** A Crawl-delay of more than five minutes asks not to be crawled: nothing is fetched, and each URL says why. */
    @Test
    void aCrawlDelayOfDaysIsSaidAndNothingIsFetched() throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                    .withBody("User-agent: *\nCrawl-delay: 100000\n")).stub("/", TestSite.html("<title>t</title>"));
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).build());
            JobSummary summary = job.awaitSummary();
            assertThat(job.failureMessage()).contains("no page could be fetched: every URL was skipped {robots=1}");
            assertThat(site.counter.requestsByPath.keySet()).containsExactly("/robots.txt");
            assertThat(store.pages(summary.jobId(), 0, 10, null)).singleElement().satisfies(p -> {
                assertThat(p.failure()).isEqualTo("robots");
                assertThat(p.detail()).isEqualTo("robots.txt asks for 100000 s between requests (Crawl-delay), more "
                        + "than 5 minutes: the host is not crawled");
            });
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void missingRobotsTxtAllowsEverything(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite().tree(7, 0)) { // no robots.txt stub: 404
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/p/0")).mode(mode));
            assertThat(summary.pages()).isEqualTo(7);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void depthIsTheShortestPathWhateverOrderFetchesFinishIn(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            // R -> S (slow) -> P -> Q is the short path: Q at depth 3. R -> F -> G -> P is fast, and
            // reaches P first at depth 3, which would put Q at depth 4, past the limit.
            site.stub("/r", TestSite.html("<a href='/s'>s</a><a href='/f'>f</a>"))
                    .stub("/s", TestSite.html("<a href='/p'>p</a>").withFixedDelay(700))
                    .stub("/f", TestSite.html("<a href='/g'>g</a>"))
                    .stub("/g", TestSite.html("<a href='/p'>p</a>"))
                    .stub("/p", TestSite.html("<a href='/q'>q</a>"))
                    .stub("/q", TestSite.html("<title>q</title>"));

            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/r")).maxDepth(3).mode(mode));

            assertThat(site.counter.requestsByPath.keySet())
                    .containsExactlyInAnyOrder("/robots.txt", "/r", "/s", "/f", "/g", "/p", "/q");
            assertThat(site.counter.duplicates()).isZero();
            assertThat(summary.pages()).isEqualTo(6);
        }
    }

    /** Sitemaps: robots.txt names an index, the index a gzipped sitemap and a plain one; /sitemap.xml too. */
    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void sitemapsAddUrlsNoPageLinksTo(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
                            .withBody("User-agent: *\nDisallow: /private/\nSitemap: " + site.url("/maps/index.xml") + "\n"))
                    .stub("/maps/index.xml", aResponse().withStatus(200).withHeader("Content-Type", "application/xml")
                            .withBody("""
                                    <?xml version="1.0" encoding="UTF-8"?>
                                    <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
                                    <sitemap><loc>%s</loc></sitemap><sitemap><loc>%s</loc></sitemap>
                                    </sitemapindex>""".formatted(site.url("/maps/a.xml.gz"), site.url("/maps/b.xml"))))
                    .stub("/maps/a.xml.gz", aResponse().withStatus(200).withHeader("Content-Type", "application/x-gzip")
                            .withBody(gzip(urlset(site.url("/orphan-1"), site.url("/private/listed"),
                                    "http://elsewhere.test/x"))))
                    .stub("/maps/b.xml", aResponse().withStatus(200).withHeader("Content-Type", "application/xml")
                            .withBody(urlset(site.url("/orphan-2"))))
                    .stub("/sitemap.xml", aResponse().withStatus(200).withHeader("Content-Type", "text/xml")
                            .withBody(urlset(site.url("/orphan-3"), site.url("/"))))
                    .stub("/", TestSite.html("<title>root</title>"));
            for (int i = 1; i <= 3; i++) {
                site.stub("/orphan-" + i, TestSite.html("<title>orphan " + i + "</title>"));
            }
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).sitemaps(true).mode(mode));

            Map<String, PageRecord> byPath = store.pages(summary.jobId(), 0, 100, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), p -> p));
            assertThat(byPath.keySet()).containsExactlyInAnyOrder("/", "/orphan-1", "/orphan-2", "/orphan-3",
                    "/private/listed");
            assertThat(byPath.get("/orphan-1").depth()).isEqualTo(1);
            // each URL's referrer is the sitemap that listed it
            assertThat(byPath.get("/orphan-1").referrer()).isEqualTo(site.url("/maps/a.xml.gz"));
            assertThat(byPath.get("/orphan-2").referrer()).isEqualTo(site.url("/maps/b.xml"));
            assertThat(byPath.get("/orphan-3").referrer()).isEqualTo(site.url("/sitemap.xml"));
            assertThat(byPath.get("/private/listed").outcome()).isEqualTo(Outcome.SKIPPED); // robots.txt applies
            assertThat(site.counter.requests("/private/listed")).isZero();
            assertThat(site.counter.requests("/")).isEqualTo(1); // listed and seeded: fetched once
            assertThat(summary.pages()).isEqualTo(4);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void withoutTheFlagSitemapsAreNotRead(ExecutionMode mode) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/sitemap.xml", aResponse().withStatus(200).withBody(urlset(site.url("/orphan"))))
                    .stub("/", TestSite.html("<title>root</title>"));
            JobSummary summary = crawl(CrawlConfig.builder().seed(site.url("/")).mode(mode));
            assertThat(site.counter.requests("/sitemap.xml")).isZero();
            assertThat(summary.pages()).isEqualTo(1);
        }
    }

    static String urlset(String... urls) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String url : urls) {
            b.append("<url><loc>").append(url).append("</loc></url>\n");
        }
        return b.append("</urlset>\n").toString();
    }

    static byte[] gzip(String text) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(out)) {
            gz.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
