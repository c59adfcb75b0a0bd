package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import dev.loomcrawl.testkit.PostgresServer;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The API of a cluster node, over real HTTP, every response checked against openapi.json. */
class ClusterApiTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Test
    void aClusterJobAndTheClusterAsTheDocumentSays() throws Exception {
        Contract contract = new Contract();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(6, 8).withLatency(LatencyModel.fixed(20)));
             Database store = Database.open(postgres.newDatabase()); Crawler crawler = new Crawler(store)) {
            ApiServer server = ApiServer.start(ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50), crawler);
            try (Http http = Http.local(server.port()).observe(contract::check);
                 ClusterNode node = ClusterNode.join(crawler, new NodeSettings("api-node",
                         "http://127.0.0.1:" + server.port(), Duration.ofSeconds(10)))) {
                server.joined(node);
                String seeds = farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(","));
                // A fetch deadline that outlasts the lease is refused, naming the field.
                Http.Response refused = http.post("/crawl", "{\"seeds\":[" + seeds + "],\"fetchDeadlineMs\":60000}");
                assertThat(refused.status()).isEqualTo(400);
                assertThat(refused.json().get("field").asText()).isEqualTo("fetchDeadlineMs");

                JsonNode job = http.post("/crawl", "{\"seeds\":[" + seeds + "],\"maxDepth\":" + (farm.graph().maxDepth() + 1)
                        + "}").json();
                long id = job.get("id").asLong();
                assertThat(job.get("cluster").asBoolean()).isTrue();
                await().atMost(Duration.ofSeconds(60)).until(() ->
                        http.get("/crawl/" + id).json().get("status").asText().equals("done"));

                JsonNode done = http.get("/crawl/" + id).json();
                assertThat(done.get("progress").get("pages").asLong()).isEqualTo(farm.graph().config().totalPages());
                assertThat(done.get("nodes").get(0).get("node").asText()).isEqualTo("api-node");
                assertThat(http.get("/crawl?limit=5").status()).isEqualTo(200);
                JsonNode cluster = http.get("/cluster").json();
                assertThat(cluster.get("self").asText()).isEqualTo("api-node");
                assertThat(cluster.get("nodes").get(0).get("live").asBoolean()).isTrue();
                assertThat(cluster.get("nodes").get(0).get("lastHeartbeat").asText()).isNotBlank();
                assertThat(http.delete("/crawl/" + id).status()).isEqualTo(200); // ended already
            } finally {
                server.close();
            }
        }
        contract.assertHeld();
    }
}
