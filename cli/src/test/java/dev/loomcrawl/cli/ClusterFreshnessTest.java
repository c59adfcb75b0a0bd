package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.PageChanges;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import dev.loomcrawl.testkit.PostgresServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A continuous job on a cluster of real {@code serve} processes, a node killed with SIGKILL mid-run: the other
 * node revisits its hosts from the schedule in the database, no visit's event is lost or doubled, and the
 * webhook (delivered by one node at a time) takes every event, in order, at least once.
 */
class ClusterFreshnessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "s3cret";
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();
    private final ServeNodes nodes = new ServeNodes();
    private final ConcurrentLinkedQueue<Long> delivered = new ConcurrentLinkedQueue<>();
    private final AtomicInteger badSignatures = new AtomicInteger();
    private MockSites farm;
    private HttpServer receiver;

    @AfterEach
    void stop() {
        nodes.close();
        if (farm != null) {
            farm.close();
        }
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private Http node(String db, String id) throws Exception {
        return nodes.join(db, id);
    }

    private String hook() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!Freshness.Webhook.sign(SECRET, body).equals(exchange.getRequestHeaders().getFirst(Freshness.Webhook.SIGNATURE))) {
                badSignatures.incrementAndGet();
            }
            delivered.add(JSON.readTree(body).get("id").asLong());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
    }

    private static List<Change> events(String db, long id) {
        try (Database store = Database.open(db)) {
            return store.changesAfter(id, 0, 100_000);
        }
    }

    @Test
    void aNodeKilledMidRunLosesNoEventAndDoublesNone() throws Exception {
        // 6 hosts x 15 pages; a third change every 3 s (minor or major), a few go or move within 10 s.
        farm = MockSites.start(Scenario.DEMO.config().withSize(6, 15).withLatency(LatencyModel.fixed(100))
                .withChanges(new PageChanges.Spec(0.15, 0.15, 0.05, 0.05, Duration.ofSeconds(3), Duration.ofSeconds(10))));
        String db = postgres.newDatabase();
        Http one = node(db, "f1");
        Http two = node(db, "f2");
        String body = "{\"seeds\":" + farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(",", "[", "]"))
                + ",\"maxDepth\":" + (farm.graph().maxDepth() + 1) + ",\"perHostConcurrency\":2,\"fetchDeadlineMs\":3000"
                + ",\"revisit\":{\"min\":\"PT1S\",\"max\":\"PT3S\"},\"webhook\":{\"url\":\"" + hook() + "\",\"secret\":\""
                + SECRET + "\"}}";
        JsonNode created = one.post("/crawl", body).json();
        assertThat(created.has("id")).as("%s", created).isTrue();
        long id = created.get("id").asLong();
        long pages = farm.graph().config().totalPages();

        // Every page visited once and some revisited, both nodes at work: then f1 dies.
        await().atMost(Duration.ofSeconds(60)).until(() -> events(db, id).size() >= pages + 30);
        nodes.get(0).kill();
        Instant killed = Instant.now();
        int atKill = events(db, id).size();
        // f2 takes f1's hosts over once their leases run out, and revisits their pages from the schedule stored.
        await().atMost(Duration.ofSeconds(60)).until(() -> events(db, id).stream()
                .filter(e -> e.at().isAfter(killed.plusSeconds(8))).map(Change::url).distinct().count() >= pages / 2);
        assertThat(two.delete("/crawl/" + id).status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> two.get("/crawl/" + id).json().get("status").asText().equals("cancelled"));
        // The status is durable at once, and a fetch already past its cancel check still stores its event (DELETE
        // answers 202 "while it stops"): wait until what was delivered is what is stored, then judge both.
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<Long> now = events(db, id).stream().map(Change::id).toList();
            return delivered.containsAll(now) && new LinkedHashSet<>(delivered).size() == now.size();
        });
        List<Change> events = events(db, id);
        List<Long> stored = events.stream().map(Change::id).toList();

        System.out.printf("continuous cluster job: %d events (%d at the kill), %d deliveries%n", events.size(), atKill,
                delivered.size());
        Map<String, List<Change>> byUrl = events.stream().collect(Collectors.groupingBy(Change::url));
        byUrl.forEach((url, of) -> {
            assertThat(of.stream().filter(e -> e.kind() == Change.Kind.NEW)).as("first visits of %s", url).hasSize(1);
            for (int i = 1; i < of.size(); i++) { // visits of one URL at least revisit.min apart: none doubled
                assertThat(Duration.between(of.get(i - 1).at(), of.get(i).at())).as("visits of %s: %s", url, of)
                        .isGreaterThan(Duration.ofMillis(500));
            }
        });
        assertThat(events).extracting(Change::kind).contains(Change.Kind.CHANGED, Change.Kind.UNCHANGED);
        assertThat(stored).isSorted().doesNotHaveDuplicates();
        // At least once, in order: what arrived, each id at its first arrival, is every event in the order stored
        // (an event the killed node delivered but had not recorded may come twice).
        assertThat(List.copyOf(new LinkedHashSet<>(delivered))).isEqualTo(stored);
        assertThat(badSignatures).hasValue(0);
    }
}
