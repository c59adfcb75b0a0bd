package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ClusterView;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.mocksites.FarmCounters;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;

/**
 * Nodes of a cluster in one JVM (two crawlers, two stores, one PostgreSQL): the shared frontier, host leases
 * and the one-transaction commit. The process-level promises (kill -9, kill -STOP) are CLI tests.
 */
class ClusterNodeTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    private static NodeSettings node(String id) {
        return node(id, null);
    }

    private static NodeSettings node(String id, @Nullable Path warcs) {
        return new NodeSettings(id, null, Duration.ofSeconds(6), warcs == null ? null : warcs.resolve(id));
    }

    /** Nodes "a" and "b" in this JVM, each around a crawler with its own store on one database. */
    private record TwoNodes(PageStore storeA, Crawler crawlerA, ClusterNode a, PageStore storeB, Crawler crawlerB,
            ClusterNode b) implements AutoCloseable {
        static TwoNodes on(String db, CrawlerOptions options) {
            return on(db, options, null);
        }

        /** @param warcs where each node keeps its WARC parts, in a directory of its own, as on its own machine */
        static TwoNodes on(String db, CrawlerOptions options, @Nullable Path warcs) {
            PageStore storeA = PageStore.open(db);
            PageStore storeB = PageStore.open(db);
            Crawler crawlerA = new Crawler(storeA, options);
            Crawler crawlerB = new Crawler(storeB, options);
            return new TwoNodes(storeA, crawlerA, ClusterNode.join(crawlerA, node("a", warcs)), storeB, crawlerB,
                    ClusterNode.join(crawlerB, node("b", warcs)));
        }

        @Override
        public void close() {
            b.close();
            crawlerB.close();
            storeB.close();
            a.close();
            crawlerA.close();
            storeA.close();
        }
    }

    /**
     * A node that stops and starts again (the same node id, as a process killed and restarted keeps it) reports
     * its new run's work on top of its earlier runs', not in their place: its share was only the last run's.
     */
    @Test
    void aNodeStartedAgainKeepsItsEarlierShare() throws Exception {
        String db = postgres.newDatabase();
        CrawlerOptions options = new CrawlerOptions(1, 10_000, true);
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(6, 10).withLatency(LatencyModel.fixed(100)))) {
            CrawlConfig config = CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(farm.graph().maxDepth() + 1)
                    .perHostConcurrency(1).fetchDeadline(Duration.ofSeconds(3)).build();
            long total = farm.graph().config().totalPages();
            long id;
            try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store, options);
                 ClusterNode first = ClusterNode.join(crawler, node("a"))) {
                id = first.start(config).id();
                await().atMost(Duration.ofSeconds(30)).until(() -> store.countPages(id, 200) >= total / 4);
            } // closing suspends this node's share; the job runs on for the cluster
            try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store, options)) {
                // the id is free again once the first run's heartbeat has aged past the lease
                java.util.concurrent.atomic.AtomicReference<ClusterNode> joined = new java.util.concurrent.atomic.AtomicReference<>();
                await().atMost(Duration.ofSeconds(20)).ignoreExceptionsInstanceOf(IllegalStateException.class)
                        .until(() -> joined.compareAndSet(null, ClusterNode.join(crawler, node("a"))));
                ClusterNode again = joined.get();
                await().atMost(Duration.ofSeconds(90)).until(() -> store.jobs().find(id).orElseThrow().status().equals("done"));
                assertThat(store.countPages(id, 200)).isEqualTo(total);
                // the node reports its share once more as its part ends, a moment after the job is marked done
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(again.report(id).orElseThrow()
                        .nodes()).singleElement().satisfies(share -> assertThat(share.pages()).isEqualTo(total)));
                again.close();
            }
        }
    }

    /**
     * A node that joins while two others hold every host at one over the new fair share gets its share within a
     * few heartbeats (they kept one host over their share each, and it got none), and the nodes' shares add up
     * to the job's rows.
     */
    @Test
    void aNodeJoiningLateGetsItsShareAndTheSharesAddUp() throws Exception {
        String db = postgres.newDatabase();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(6, 30).withLatency(LatencyModel.fixed(250)));
             TwoNodes nodes = TwoNodes.on(db, new CrawlerOptions(1, 10_000, true))) {
            CrawlConfig config = CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(farm.graph().maxDepth() + 1)
                    .perHostConcurrency(1).fetchDeadline(Duration.ofSeconds(3)).build();
            CrawlJob job = nodes.a().start(config);
            long total = farm.graph().config().totalPages();
            await().atMost(Duration.ofSeconds(20)).until(() -> nodes.a().view().leases().size() == 6);
            try (PageStore storeC = PageStore.open(db); Crawler crawlerC = new Crawler(storeC, new CrawlerOptions(1, 10_000, true));
                 ClusterNode c = ClusterNode.join(crawlerC, node("c"))) {
                await().atMost(Duration.ofSeconds(15)).until(() -> c.view().leases().stream()
                        .filter(lease -> lease.owner().equals("c")).count() >= 1);
                await().atMost(Duration.ofSeconds(90)).until(() -> storeC.jobs().find(job.id()).orElseThrow().status().equals("done"));
                assertThat(storeC.countPages(job.id(), 200)).isEqualTo(total);
                assertThat(farm.counters().duplicateFetches()).isZero();
                long rows = storeC.countPages(job.id(), null);
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(c.report(job.id()).orElseThrow().nodes()
                        .stream().mapToLong(share -> share.pages() + share.failed() + share.skipped()).sum()).isEqualTo(rows));
            }
        }
    }

    /** ... and each node keeps the WARC records of the pages it fetched, in its own directory: together, each once. */
    @Test
    void twoNodesShareOneJobEachPageOnceAndNoHostAboveItsLimit(@TempDir Path warcs) throws Exception {
        String db = postgres.newDatabase();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(12, 15).withLatency(LatencyModel.fixed(100)));
             TwoNodes nodes = TwoNodes.on(db, new CrawlerOptions(3, 10_000, true), warcs)) {
            PageStore storeA = nodes.storeA();
            ClusterNode a = nodes.a();
            ClusterNode b = nodes.b();
            CrawlConfig config = CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(farm.graph().maxDepth() + 1)
                    .perHostConcurrency(3).fetchDeadline(Duration.ofSeconds(3)).warcFile("crawl-x.warc.gz").build();
            CrawlJob job = a.start(config);
            long total = farm.graph().config().totalPages();

            await().atMost(Duration.ofSeconds(90)).until(() -> storeA.jobs().find(job.id()).orElseThrow().status().equals("done"));

            assertThat(storeA.countPages(job.id(), 200)).isEqualTo(total);
            FarmCounters.Snapshot counters = farm.counters();
            // Each page fetched once, and each robots.txt: a node a host moves to reads it from the database.
            assertThat(counters.byKind().get("page")).isEqualTo(total);
            assertThat(counters.byKind().get("robots")).isEqualTo(12);
            assertThat(counters.duplicateFetches()).isZero();
            assertThat(counters.maxInFlightPerHost()).isLessThanOrEqualTo(3);
            JobReport report = b.report(job.id()).orElseThrow();
            assertThat(report.progress().pages()).isEqualTo(total);
            assertThat(report.summary().pages()).isEqualTo(total);
            assertThat(report.nodes()).extracting(JobReport.Share::node).containsExactly("a", "b");
            assertThat(report.nodes()).allSatisfy(s -> assertThat(s.pages()).isPositive());
            assertThat(a.view().nodes()).hasSize(2);
            // Between a heartbeat marking the job done and writing its summary, a report still has the summary.
            try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE jobs SET summary = NULL WHERE id = " + job.id());
            }
            assertThat(b.report(job.id()).orElseThrow().summary().pages()).isEqualTo(total);

            Map<String, List<String>> fetchedBy = new HashMap<>();
            for (String node : List.of("a", "b")) {
                try (WarcReader reader = new WarcReader(warcs.resolve(node).resolve("crawl-x-" + node + ".warc.gz"))) {
                    fetchedBy.put(node, reader.records().filter(r -> r instanceof WarcResponse)
                            .map(r -> ((WarcResponse) r).target()).toList());
                }
            }
            assertThat(fetchedBy.values()).allSatisfy(part -> assertThat(part).isNotEmpty());
            assertThat(fetchedBy.values().stream().flatMap(List::stream)).hasSize((int) total).doesNotHaveDuplicates();
        }
    }

    /**
     * Depth is the shortest path across nodes too: with latencies spread wide, pages are often first found by
     * long paths, and a depth limit must still admit exactly what one process admits.
     */
    @Test
    void aDepthLimitAdmitsWhatOneProcessAdmits() throws Exception {
        String db = postgres.newDatabase();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(8, 60).withLatency(LatencyModel.uniform(5, 200)))) {
            int limit = farm.graph().maxDepth() - 1;
            CrawlConfigBuilder config = CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(limit)
                    .fetchDeadline(Duration.ofSeconds(3));
            long alone;
            try (PageStore h2 = PageStore.open("jdbc:h2:mem:depth-one;DB_CLOSE_DELAY=-1"); Crawler one = new Crawler(h2)) {
                alone = one.start(config.build()).awaitSummary().pages();
            }
            farm.reset();
            try (TwoNodes nodes = TwoNodes.on(db, CrawlerOptions.DEFAULTS)) {
                PageStore storeA = nodes.storeA();
                CrawlJob job = nodes.a().start(config.build());
                await().atMost(Duration.ofSeconds(90)).until(() -> storeA.jobs().find(job.id()).orElseThrow().status().equals("done"));

                assertThat(alone).isLessThan(farm.graph().config().totalPages()); // the limit really cuts
                assertThat(storeA.countPages(job.id(), 200)).isEqualTo(alone);
                assertThat(storeA.pages(job.id(), 0, 1_000, 200)).allSatisfy(p -> assertThat(p.depth()).isBetween(0, limit));
            }
        }
    }

    @Test
    void thePageLimitHoldsAcrossNodes() throws Exception {
        String db = postgres.newDatabase();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(10, 15).withLatency(LatencyModel.fixed(50)));
             TwoNodes nodes = TwoNodes.on(db, CrawlerOptions.DEFAULTS)) {
            PageStore storeA = nodes.storeA();
            CrawlJob job = nodes.b().start(CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(farm.graph().maxDepth() + 1)
                    .maxPages(40).fetchDeadline(Duration.ofSeconds(3)).build());

            await().atMost(Duration.ofSeconds(60)).until(() -> storeA.jobs().find(job.id()).orElseThrow().status().equals("done"));

            // URLs admitted, each stored once (links robots.txt forbids are recorded on sight, outside the limit)
            assertThat(storeA.pages(job.id(), 0, 1_000, null)).filteredOn(p -> !"robots".equals(p.failure())).hasSize(40);
            assertThat(farm.counters().byKind().get("page")).isLessThanOrEqualTo(40);
        }
    }

    @Test
    void aCancelOnOneNodeStopsTheJobOnAll() throws Exception {
        String db = postgres.newDatabase();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(10, 40).withLatency(LatencyModel.fixed(200)));
             TwoNodes nodes = TwoNodes.on(db, CrawlerOptions.DEFAULTS)) {
            PageStore storeA = nodes.storeA();
            ClusterNode a = nodes.a();
            ClusterNode b = nodes.b();
            CrawlJob job = a.start(CrawlConfig.builder().seeds(farm.seedUrls()).maxDepth(farm.graph().maxDepth() + 1)
                    .perHostConcurrency(2).fetchDeadline(Duration.ofSeconds(3)).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.crawlerB().job(job.id()).isPresent()
                    && nodes.crawlerB().job(job.id()).orElseThrow().progress().pages() > 0);

            assertThat(b.cancel(job.id())).isTrue();

            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.crawlerA().job(job.id()).isEmpty()
                    && nodes.crawlerB().job(job.id()).isEmpty());
            long stored = storeA.countPages(job.id(), null);
            assertThat(storeA.jobs().find(job.id()).orElseThrow().status()).isEqualTo("cancelled");
            assertThat(stored).isLessThan(farm.graph().config().totalPages());
            assertThat(nodes.crawlerA().stats().fetching() + nodes.crawlerB().stats().fetching()).isZero(); // both stopped
        }
    }

    @Test
    void aJobWhoseFetchDeadlineOutlastsTheLeaseIsRefused() {
        String db = postgres.newDatabase();
        try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store);
             ClusterNode a = ClusterNode.join(crawler, node("a"))) {
            assertThatThrownBy(() -> a.start(CrawlConfig.builder().seed("http://h0.loomcrawl.test:1/")
                    .fetchDeadline(Duration.ofSeconds(30)).build()))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("fetchDeadline");
            assertThat(List.of(store.jobs().count())).containsExactly(0L);
        }
    }

    @Test
    void aNodeIdInUseByALiveNodeIsRefused() {
        String db = postgres.newDatabase();
        try (PageStore storeA = PageStore.open(db); Crawler crawlerA = new Crawler(storeA);
             PageStore storeB = PageStore.open(db); Crawler crawlerB = new Crawler(storeB);
             ClusterNode a = ClusterNode.join(crawlerA, node("same"))) {
            assertThatThrownBy(() -> ClusterNode.join(crawlerB, node("same"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("node id 'same' is in use by a live node");
            try (ClusterNode b = ClusterNode.join(crawlerB, node("other"))) {
                assertThat(a.view().nodes()).extracting(ClusterView.NodeView::nodeId).containsExactly("other", "same");
            }
        }
    }

    @Test
    void aClusterNeedsPostgres() {
        try (PageStore store = PageStore.open("jdbc:h2:mem:cluster-h2;DB_CLOSE_DELAY=-1"); Crawler a = new Crawler(store)) {
            assertThatThrownBy(() -> ClusterNode.join(a, node("a"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("PostgreSQL");
        }
    }
}
