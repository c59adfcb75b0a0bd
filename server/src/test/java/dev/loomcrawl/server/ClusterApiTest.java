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
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;

/** The API of a cluster node, over real HTTP, every response checked against openapi.json. */
class ClusterApiTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Test
    void aClusterJobAndTheClusterAsTheDocumentSays(@TempDir Path warcs) throws Exception {
        Contract contract = new Contract();
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(6, 8).withLatency(LatencyModel.fixed(20)));
             Database store = Database.open(postgres.newDatabase()); Crawler crawler = new Crawler(store)) {
            ApiServer.Settings local = ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50);
            ApiServer server = ApiServer.start(new ApiServer.Settings(local.host(), local.port(), local.mode(),
                    local.poolSize(), local.maxPoolSize(), null, null, local.allowedHostNames(), local.watchPinning(),
                    local.guardPrivateAddresses(), local.content(), warcs), crawler);
            try (Http http = Http.local(server.port()).observe(contract::check);
                 ClusterNode node = ClusterNode.join(crawler, new NodeSettings("api-node",
                         "http://127.0.0.1:" + server.port(), Duration.ofSeconds(10), warcs))) {
                server.joined(node);
                String seeds = farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(","));
                // A fetch deadline that outlasts the lease is refused, naming the field.
                Http.Response refused = http.post("/crawl", "{\"seeds\":[" + seeds + "],\"fetchDeadlineMs\":60000}");
                assertThat(refused.status()).isEqualTo(400);
                assertThat(refused.json().get("field").asText()).isEqualTo("fetchDeadlineMs");

                JsonNode job = http.post("/crawl", "{\"seeds\":[" + seeds + "],\"maxDepth\":" + (farm.graph().maxDepth() + 1)
                        + ",\"content\":\"markdown\"}").json();
                long id = job.get("id").asLong();
                assertThat(job.get("cluster").asBoolean()).isTrue();
                await().atMost(Duration.ofSeconds(60)).until(() ->
                        http.get("/crawl/" + id).json().get("status").asText().equals("done"));

                JsonNode done = http.get("/crawl/" + id).json();
                assertThat(done.get("progress").get("pages").asLong()).isEqualTo(farm.graph().config().totalPages());
                assertThat(done.get("nodes").get(0).get("node").asText()).isEqualTo("api-node");
                // Its pages' main content from PostgreSQL, as Markdown files in a ZIP archive.
                assertThat(done.at("/links/markdown").asText()).isEqualTo("/crawl/" + id + "/export?format=markdown");
                int files = 0;
                try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(
                        http.bytes("/crawl/" + id + "/export?format=markdown")))) {
                    for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                        assertThat(new String(zip.readAllBytes(), StandardCharsets.UTF_8)).startsWith("---\nurl: ");
                        files++;
                    }
                }
                assertThat(files).isEqualTo(farm.graph().config().totalPages());
                // This node's part of the job's WARC file: here, every page, as it is the only node.
                assertThat(done.at("/links/warc").asText()).isEqualTo("/crawl/" + id + "/warc");
                Http.Response part = http.get("/crawl/" + id + "/warc");
                assertThat(part.header("Content-Disposition")).endsWith("-api-node.warc.gz\"");
                try (WarcReader reader = new WarcReader(new ByteArrayInputStream(http.bytes("/crawl/" + id + "/warc")))) {
                    assertThat(reader.records().filter(r -> r instanceof WarcResponse).count())
                            .isEqualTo(farm.graph().config().totalPages());
                }
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
