package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PolitenessKey;
import dev.loomcrawl.mocksites.CountingServer;
import dev.loomcrawl.mocksites.TestDomainResolverProvider;
import dev.loomcrawl.testkit.PostgresServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Politeness keys across the nodes of a cluster (three crawlers, three stores, one PostgreSQL), counted at
 * servers on their own loopback addresses with many names each: a limit by address holds for the cluster, an
 * operator's pause through one node binds the others, and the audit adds the nodes' shares up.
 */
class ClusterPolitenessTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    private static final int ADDRESSES = 5;
    private static final int NAMES = 10;
    private static final int PAGES = 15;

    private final List<CountingServer> servers = new ArrayList<>();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        servers.forEach(CountingServer::close);
    }

    /** One node: its store, its crawler, and the node around it. */
    private record Node(PageStore store, Crawler crawler, ClusterNode node) {}

    private Node node(String db, String id) {
        PageStore store = PageStore.open(db);
        Crawler crawler = new Crawler(store, new CrawlerOptions(4, 10_000, true));
        ClusterNode node = ClusterNode.join(crawler, new NodeSettings(id, null, Duration.ofSeconds(6)));
        open.add(store);
        open.add(crawler);
        open.add(node);
        return new Node(store, crawler, node);
    }

    private CrawlConfig farm(int first, int latencyMillis) throws Exception {
        CrawlConfigBuilder config = CrawlConfig.builder().maxDepth(10).perHostConcurrency(4)
                .politenessKey(PolitenessKey.IP).fetchDeadline(Duration.ofSeconds(3));
        for (int a = first; a < first + ADDRESSES; a++) {
            CountingServer server = new CountingServer("127.0.0." + a, PAGES, inFlight -> latencyMillis);
            servers.add(server);
            for (int n = 0; n < NAMES; n++) {
                config.seed("http://" + TestDomainResolverProvider.onAddress("h" + n, a) + ":" + server.port() + "/p/0");
            }
        }
        return config.build();
    }

    /** 50 names on 5 addresses, limit 4 by address, three nodes: no server ever sees more than 4 at once. */
    @Test
    void byAddressTheLimitHoldsAcrossThreeNodes() throws Exception {
        String db = postgres.newDatabase();
        CrawlConfig config = farm(10, 30);
        Node a = node(db, "a");
        node(db, "b");
        node(db, "c");
        long id = a.node().start(config).id();
        PageStore store = a.store();

        await().atMost(Duration.ofSeconds(90)).until(() -> store.jobs().find(id).orElseThrow().status().equals("done"));

        assertThat(store.countPages(id, 200)).isEqualTo(ADDRESSES * NAMES * PAGES);
        for (CountingServer server : servers) {
            assertThat(server.maxInFlight.get()).isBetween(1, 4);
            assertThat(server.byName).hasSize(NAMES);
        }
        // The audit adds the nodes' shares up, and equals what each server counted.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Map<String, KeyAudit> audit = store.politeness().audit(id).stream()
                    .collect(Collectors.toMap(KeyAudit::key, k -> k));
            for (int i = 0; i < ADDRESSES; i++) {
                assertThat(audit.get("127.0.0." + (10 + i)).requests()).isEqualTo(servers.get(i).total.get());
            }
        });
    }

    /** A pause set through node a while the job runs on a and b: neither sends to that address a second later. */
    @Test
    void aPauseThroughOneNodeBindsTheOthersWithinABeat() throws Exception {
        String db = postgres.newDatabase();
        CrawlConfig config = farm(20, 60);
        Node a = node(db, "a");
        Node b = node(db, "b");
        long id = a.node().start(config).id();
        CountingServer target = servers.getFirst();
        await().atMost(Duration.ofSeconds(30)).until(() -> target.total.get() >= 20);

        a.crawler().hosts().set("127.0.0.20", new HostSetting(null, null, Instant.now().plus(Duration.ofHours(1))));
        long answered = System.nanoTime();
        await().during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(4))
                .until(() -> target.lastArrivalNanos.get() - answered < Duration.ofSeconds(1).toNanos());
        assertThat(b.crawler().hosts().settings()).containsKey("127.0.0.20");

        a.crawler().hosts().set("127.0.0.20", new HostSetting(null, null, null));
        await().atMost(Duration.ofSeconds(90)).until(() -> a.store().jobs().find(id).orElseThrow().status().equals("done"));
        assertThat(a.store().countPages(id, 200)).isEqualTo(ADDRESSES * NAMES * PAGES);
    }
}
