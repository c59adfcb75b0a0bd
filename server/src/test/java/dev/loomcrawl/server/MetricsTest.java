package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} during and after a real crawl, parsed by the Prometheus project's own text-format
 * parser ({@code prometheus_client.parser}, Python; the build runs {@code scripts/test-tools.sh} first, which installs it when it is missing).
 */
class MetricsTest {
    /** Reads the exposition on stdin, prints one JSON object: family name to type and samples. */
    private static final String PARSER = """
            import sys, json
            from prometheus_client.parser import text_string_to_metric_families
            out = {}
            for f in text_string_to_metric_families(sys.stdin.read()):
                out[f.name] = {"type": f.type, "samples": [
                    {"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
            print(json.dumps(out))
            """;

    private MockSites farm;
    private Database store;
    private Crawler crawler;
    private ApiServer server;
    private Http http;
    private final Contract contract = new Contract();

    @BeforeEach
    void start() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(150)));
        store = Database.open("jdbc:h2:mem:metrics;DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
        server = ApiServer.start(ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50), crawler);
        http = Http.local(server.port()).observe(contract::check);
    }

    @AfterEach
    void stop() {
        http.close();
        server.close();
        crawler.close();
        store.close();
        farm.close();
        contract.assertHeld();
    }

    /** Family name to its type and samples, as Prometheus's parser reads the scrape. */
    private JsonNode scrape() throws IOException, InterruptedException {
        Http.Response r = http.get("/metrics");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        Process python = new ProcessBuilder("python3", "-c", PARSER).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = python.getOutputStream()) {
            in.write(r.text().getBytes(StandardCharsets.UTF_8));
        }
        String parsed = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(python.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(python.exitValue()).as("the Prometheus parser read the scrape (needs python3 and prometheus_client)")
                .isZero();
        return Http.parse(parsed);
    }

    /** The first sample of {@code family} named {@code sample} whose labels include {@code labels}. */
    private static double value(JsonNode families, String family, String sample, Map<String, String> labels) {
        return samples(families, family, sample, labels).getFirst();
    }

    /** The sum of every such sample (a family split by a label the caller does not name). */
    private static double total(JsonNode families, String family, String sample, Map<String, String> labels) {
        return samples(families, family, sample, labels).stream().mapToDouble(Double::doubleValue).sum();
    }

    private static List<Double> samples(JsonNode families, String family, String sample, Map<String, String> labels) {
        JsonNode f = families.get(family);
        assertThat(f).as(family).isNotNull();
        List<Double> values = new ArrayList<>();
        for (JsonNode s : f.get("samples")) {
            Map<String, String> have = new HashMap<>();
            s.get("labels").properties().forEach(e -> have.put(e.getKey(), e.getValue().asText()));
            if (s.get("name").asText().equals(sample) && have.entrySet().containsAll(labels.entrySet())) {
                values.add(s.get("value").asDouble());
            }
        }
        if (values.isEmpty()) {
            throw new AssertionError("no sample " + sample + labels + " in " + f);
        }
        return values;
    }

    @Test
    void aScrapeDuringAndAfterACrawlParsesAndAddsUp() throws Exception {
        String seeds = farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(",", "[", "]"));
        long id = http.post("/crawl", "{\"seeds\":" + seeds + ",\"maxDepth\":" + farm.graph().maxDepth()
                + ",\"perHostConcurrency\":1}").json().get("id").asLong();

        // While it runs: the job's own gauges, labelled with its id.
        JsonNode[] live = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            live[0] = scrape();
            return live[0].has("loomcrawl_job_pages") && !live[0].get("loomcrawl_job_pages").get("samples").isEmpty();
        });
        assertThat(live[0].get("loomcrawl_job_pages").get("type").asText()).isEqualTo("gauge");
        assertThat(value(live[0], "loomcrawl_job_queued", "loomcrawl_job_queued", Map.of("job", Long.toString(id),
                "mode", "virtual"))).isGreaterThanOrEqualTo(0);

        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/crawl/" + id).json().get("status").asText()
                .equals("done"));
        JsonNode summary = http.get("/crawl/" + id).json().get("summary");
        JsonNode m = scrape();

        assertThat(m.get("loomcrawl_pages").get("type").asText()).isEqualTo("counter");
        assertThat(value(m, "loomcrawl_pages", "loomcrawl_pages_total", Map.of())).isEqualTo(summary.get("pages").asDouble());
        assertThat(value(m, "loomcrawl_skips", "loomcrawl_skips_total", Map.of("kind", "robots")))
                .isEqualTo(summary.get("skipped").asDouble());
        // The fetch-latency histogram: every answered page request (robots.txt is no row), 150 ms each at least.
        assertThat(m.get("loomcrawl_fetch_latency_seconds").get("type").asText()).isEqualTo("histogram");
        double count = value(m, "loomcrawl_fetch_latency_seconds", "loomcrawl_fetch_latency_seconds_count", Map.of());
        assertThat(count).isEqualTo(summary.get("pages").asDouble());
        assertThat(value(m, "loomcrawl_fetch_latency_seconds", "loomcrawl_fetch_latency_seconds_bucket",
                Map.of("le", "0.1"))).isZero();
        assertThat(value(m, "loomcrawl_fetch_latency_seconds", "loomcrawl_fetch_latency_seconds_bucket",
                Map.of("le", "+Inf"))).isEqualTo(count);
        assertThat(value(m, "loomcrawl_requests", "loomcrawl_requests_total", Map.of())).isGreaterThanOrEqualTo(count);
        assertThat(value(m, "loomcrawl_virtual_threads_started", "loomcrawl_virtual_threads_started_total", Map.of()))
                .isGreaterThanOrEqualTo(count);
        assertThat(value(m, "loomcrawl_fetches_in_flight", "loomcrawl_fetches_in_flight", Map.of())).isZero();
        assertThat(m.has("loomcrawl_job_pages")).as("ended jobs leave the per-job gauges").isFalse();

        // The JVM, Jetty and HTTP server families Micrometer's binders provide.
        assertThat(value(m, "jvm_threads_live_threads", "jvm_threads_live_threads", Map.of())).isPositive();
        // Summed over the heap's pools: one of them (a survivor space, eden just after a collection) may be empty.
        assertThat(total(m, "jvm_memory_used_bytes", "jvm_memory_used_bytes", Map.of("area", "heap"))).isPositive();
        assertThat(m.has("jvm_gc_pause_seconds") || m.has("jvm_gc_memory_allocated_bytes")).isTrue();
        assertThat(m.has("jetty_threads_current")).isTrue();
        assertThat(value(m, "http_server_requests_seconds", "http_server_requests_seconds_count",
                Map.of("method", "POST", "uri", "/crawl", "status", "202"))).isEqualTo(1);
        assertThat(value(m, "http_server_requests_seconds", "http_server_requests_seconds_count",
                Map.of("method", "GET", "uri", "/crawl/{id}", "status", "200"))).isPositive();
    }
}
