package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.KeyView;
import dev.loomcrawl.crawler.values.PolitenessKey;
import dev.loomcrawl.mocksites.CountingServer;
import dev.loomcrawl.mocksites.TestDomainResolverProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Politeness as a server operator sees it, counted at servers on their own loopback addresses, with many host
 * names on each (the farm's resolver, {@link TestDomainResolverProvider#onAddress}): per address, per domain, adaptive, steered live,
 * and audited.
 */
class PolitenessTest {
    private static final AtomicLong DB = new AtomicLong();
    private static final int ADDRESSES = 5;
    private static final int NAMES_PER_ADDRESS = 10;
    private static final int PAGES = 15;

    private final List<CountingServer> servers = new ArrayList<>();
    private PageStore store;
    private Crawler crawler;

    private Crawler open(CrawlerOptions options) {
        store = PageStore.open("jdbc:h2:mem:politeness" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store, options);
        return crawler;
    }

    @AfterEach
    void close() {
        if (crawler != null) {
            crawler.close();
            store.close();
        }
        servers.forEach(CountingServer::close);
    }

    /** Five servers on 127.0.0.2-6, each answering for ten names after {@code latencyMillis}. */
    private List<String> farm(int latencyMillis) throws Exception {
        List<String> seeds = new ArrayList<>();
        for (int a = 0; a < ADDRESSES; a++) {
            CountingServer server = new CountingServer("127.0.0." + (a + 2), PAGES, inFlight -> latencyMillis);
            servers.add(server);
            for (int n = 0; n < NAMES_PER_ADDRESS; n++) {
                seeds.add("http://" + TestDomainResolverProvider.onAddress("h" + n, a + 2) + ":" + server.port() + "/p/0");
            }
        }
        return seeds;
    }

    private JobSummary crawl(List<String> seeds, PolitenessKey key, int limit) throws Exception {
        CrawlConfigBuilder config = CrawlConfig.builder().maxDepth(10).perHostConcurrency(limit).politenessKey(key);
        seeds.forEach(config::seed);
        return crawler.start(config.build()).awaitSummary();
    }

    /** 50 names on 5 addresses, limit 4 by address: no server ever sees more than 4 at once. */
    @Test
    void byAddressNamesOnOneAddressShareOneLimit() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        JobSummary summary = crawl(farm(20), PolitenessKey.IP, 4);

        assertThat(summary.pages()).isEqualTo(ADDRESSES * NAMES_PER_ADDRESS * PAGES);
        for (CountingServer server : servers) {
            assertThat(server.maxInFlight.get()).isBetween(2, 4);
            assertThat(server.byName).hasSize(NAMES_PER_ADDRESS);
        }
    }

    /** The control: by host name, the same crawl puts many more than 4 on one address. */
    @Test
    void byHostNameTheSameCrawlLoadsOneAddressManyTimesOver() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        crawl(farm(20), PolitenessKey.HOST, 4);

        assertThat(servers.stream().mapToInt(s -> s.maxInFlight.get()).max().orElseThrow()).isGreaterThan(4);
    }

    /**
     * A job by address, then a job by host name beside it: the address limit binds both, as the server sees it.
     * (The other way round, what the first job sent before the second brought addresses into force is on its
     * way already: counted on the address from then on, but not recalled.)
     */
    @Test
    void twoJobsWithDifferentKeysStillKeepTheAddressLimit() throws Exception {
        open(new CrawlerOptions(4, 10_000, false));
        List<String> seeds = farm(20);
        CrawlConfigBuilder byHost = CrawlConfig.builder().maxDepth(10).perHostConcurrency(4);
        CrawlConfigBuilder byAddress = CrawlConfig.builder().maxDepth(10).perHostConcurrency(4)
                .politenessKey(PolitenessKey.IP);
        seeds.forEach(byHost::seed);
        seeds.forEach(byAddress::seed);
        CrawlJob two = crawler.start(byAddress.build());
        CrawlJob one = crawler.start(byHost.build());
        assertThat(one.awaitSummary().pages()).isEqualTo(seeds.size() * PAGES);
        assertThat(two.awaitSummary().pages()).isEqualTo(seeds.size() * PAGES);
        for (CountingServer server : servers) {
            assertThat(server.maxInFlight.get()).isLessThanOrEqualTo(4);
        }
    }

    /** The audit's figures are the servers' own: requests per address, and never more in flight than counted. */
    @Test
    void theAuditEqualsWhatTheServersCounted() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        List<String> seeds = farm(20);
        CrawlConfigBuilder config = CrawlConfig.builder().maxDepth(10).perHostConcurrency(4).politenessKey(PolitenessKey.IP);
        seeds.forEach(config::seed);
        CrawlJob job = crawler.start(config.build());
        job.awaitSummary();

        Map<String, KeyAudit> audit = crawler.hosts().audit(job.id()).orElseThrow().stream()
                .collect(Collectors.toMap(KeyAudit::key, k -> k));
        Map<String, KeyAudit> stored = store.politeness().audit(job.id()).stream()
                .collect(Collectors.toMap(KeyAudit::key, k -> k));
        assertThat(audit).hasSize(ADDRESSES);
        for (int a = 0; a < ADDRESSES; a++) {
            CountingServer server = servers.get(a);
            KeyAudit figures = audit.get("127.0.0." + (a + 2));
            assertThat(figures.requests()).isEqualTo(server.total.get()); // pages and robots.txt
            assertThat(figures.maxInFlight()).isBetween(1, 4);
            assertThat(figures.requestsInRetryAfter()).isZero();
            assertThat(stored.get(figures.key()).requests()).isEqualTo(figures.requests()); // stored at the end
        }
    }

    /**
     * A server whose latency doubles past 3 in flight: adaptivity keeps it at its base for most of the crawl.
     * Finding the limit costs slow answers at the start and at each rare probe (docs/politeness.md, "What it costs"):
     * over 1,023 pages 2.5-12.1% here in 29 crawls, quiet and beside one or two busy loops on 2 cores, the median
     * 5.7%. A rule that does not hold the server doubles most answers: the control nearly all, a yardstick set too
     * high by our own lateness 60% and more. So the bar is two fifths, clear of both; bars at a tenth and at a fifth
     * sat in the working rule's own tail and each failed a fresh-clone run.
     */
    @Test
    void adaptivityKeepsASlowingServerNearItsBaseLatency() throws Exception {
        // The in-flight limit fixed: its carrier probe would call a cold test JVM's JIT start "our own CPU" and
        // keep latency out of the rule for a while (HostGates' selfBusy), which is not what this test is about.
        open(new CrawlerOptions(8, 10_000, false));
        // A cold JVM's lateness at a crawl's start, read as the server's, can set the yardstick too high for good: the
        // rule's known weakness (docs/politeness.md, "What it costs": 2 of 17 fresh-clone CI runs; bounded in
        // AdaptiveModelTest). A crawl of a fast host first, so that this test judges the rule at a steady pace.
        CountingServer warm = new CountingServer("127.0.0.7", 1023, inFlight -> 5);
        servers.add(warm);
        crawler.start(CrawlConfig.builder().seed("http://127.0.0.7:" + warm.port() + "/p/0").maxDepth(10)
                .perHostConcurrency(8).build()).awaitSummary();
        CountingServer server = new CountingServer("127.0.0.7", 1023, inFlight -> inFlight > 3 ? 100 : 50);
        servers.add(server);
        CrawlConfig config = CrawlConfig.builder().seed("http://127.0.0.7:" + server.port() + "/p/0").maxDepth(10)
                .perHostConcurrency(8).build();
        CrawlJob job = crawler.start(config);
        // Held below its limit for seconds, and the job says so and why (the progress line, GET /crawl/{id})
        String key = "127.0.0.7:" + server.port();
        await().atMost(Duration.ofSeconds(15)).until(() -> job.waits().heldBack().getOrDefault(key, ""),
                why -> why.matches("[1-7] of 8 in flight for \\d+ s: its answers slowed"));
        assertThat(job.awaitSummary().pages()).isEqualTo(1023);

        System.out.printf("slowing server, adaptive: p90 %d ms, p95 %d ms; as modelled p90 %d ms, p95 %d ms, "
                + "%.1f%% slow%n", server.quantileMillis(0.90), server.quantileMillis(0.95),
                server.modelledQuantileMillis(0.90), server.modelledQuantileMillis(0.95),
                100 * server.modelledShareOver(50));
        // As modelled: on a busy machine a sleep overruns, and the time counted in the server says so (p90 57 ms
        // beside three busy loops, 50 as modelled), which is no request meeting an overloaded server. The bar parts
        // a rule that finds the server's 3 from one that settles above it: at 4 about half the answers double, and a
        // yardstick set too high doubles 60% and more. The working rule's tail reaches 25% on a busy machine
        // (politeness.md, "What it costs").
        assertThat(server.modelledShareOver(50)).isLessThan(0.4);
    }

    /** The control: told 8 and not adapting, the same crawl makes the server slow for most requests. */
    @Test
    void withoutAdaptivityTheSameServerIsOverloaded() throws Exception {
        open(new CrawlerOptions(8, 10_000, true, PolitenessKey.HOST, false));
        CountingServer server = new CountingServer("127.0.0.7", 255, inFlight -> inFlight > 3 ? 100 : 50);
        servers.add(server);
        CrawlConfig config = CrawlConfig.builder().seed("http://127.0.0.7:" + server.port() + "/p/0").maxDepth(10)
                .perHostConcurrency(8).build();
        crawler.start(config).awaitSummary();

        assertThat(server.modelledQuantileMillis(0.90)).isGreaterThanOrEqualTo(100);
    }

    /** A pause set while a job runs: no request starts after it, and the job goes on once it is lifted. */
    @Test
    void aPauseAppliesAtOnceToARunningJobAndSurvivesARestart() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        CountingServer server = new CountingServer("127.0.0.8", 255, inFlight -> 20);
        servers.add(server);
        String key = "127.0.0.8:" + server.port();
        CrawlJob job = crawler.start(CrawlConfig.builder().seed("http://" + key + "/p/0").maxDepth(10).build());
        await().atMost(Duration.ofSeconds(10)).until(() -> server.total.get() >= 20);

        crawler.hosts().set(key, new HostSetting(null, null, Instant.now().plus(Duration.ofHours(1))));
        long answered = System.nanoTime();
        int seen = server.total.get();
        // Watched for 1.5 s: nothing arrives later than 1 s after the answer (only requests already on their way).
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> server.lastArrivalNanos.get() - answered < Duration.ofSeconds(1).toNanos());
        assertThat(server.total.get()).isLessThan(seen + 5);
        KeyView view = crawler.hosts().key(key);
        assertThat(view.pausedUntil()).isNotNull();
        assertThat(view.queued()).isPositive();
        assertThat(job.waits().waiting()).hasEntrySatisfying(key,
                why -> assertThat(why).startsWith("paused by an operator, 59 min ").endsWith(" s more"));

        crawler.hosts().set(key, new HostSetting(2, Duration.ofMillis(5), null));
        assertThat(job.awaitSummary().pages()).isEqualTo(255);
        assertThat(server.maxInFlight.get()).isLessThanOrEqualTo(4);

        // Stored: a crawler opened again on the same database keeps what was set.
        crawler.close();
        crawler = new Crawler(store, new CrawlerOptions(4, 10_000, true));
        KeyView again = crawler.hosts().key(key);
        assertThat(again.limit()).isEqualTo(2);
        assertThat(again.delayMillis()).isEqualTo(5);
    }
}
