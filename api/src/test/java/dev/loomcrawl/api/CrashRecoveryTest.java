package dev.loomcrawl.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.ExecutionMode;
import dev.loomcrawl.crawler.PageStore;
import dev.loomcrawl.mocksites.FarmCounters;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A real serve process, killed mid-crawl, then serve again on the same database. */
class CrashRecoveryTest {
    private static final Pattern PORT = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)");
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private MockSites farm;

    @BeforeEach
    void startFarm() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(30, 10).withLatency(LatencyModel.fixed(250)));
    }

    @AfterEach
    void stopFarm() {
        farm.close();
        http.close();
    }

    private JsonNode call(int port, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return Json.MAPPER.readTree(http.send(b.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SIGKILL", "SIGTERM"})
    void theJobResumesWithNothingLostAndNothingStoredTwice(String signal, @TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("crawl");
        long pagesTotal = farm.graph().config().totalPages(); // 300, plus a robots-disallowed link each
        AppProcess serve = AppProcess.start(List.of("-Xmx512m"), List.of("serve", "--port=0", "--db=" + db),
                ServeCommand.READY);
        long id;
        try {
            Matcher m = PORT.matcher(serve.readyLine());
            assertThat(m.find()).isTrue();
            int port = Integer.parseInt(m.group(1));
            id = call(port, "POST", "/crawl", "{\"seeds\":" + Json.MAPPER.valueToTree(farm.seedUrls())
                    + ",\"maxDepth\":" + (farm.graph().maxDepth() + 1) + ",\"perHostConcurrency\":2}").get("id").asLong();
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    call(port, "GET", "/crawl/" + id, null).get("progress").get("pages").asLong() >= 80);
            if (signal.equals("SIGKILL")) {
                serve.kill(); // no hook, no flush: whatever H2 had not written is gone
            } else {
                serve.close(); // SIGTERM: finish what is in flight, then stop
            }
        } finally {
            serve.close();
        }
        FarmCounters.Snapshot atStop = farm.counters();
        assertThat(atStop.byKind().get("page")).isLessThan(pagesTotal); // it really stopped midway

        try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store)) {
            assertThat(store.job(id).orElseThrow().status()).isEqualTo("running");
            long storedAtStop = store.countPages(id, 200);
            assertThat(ServeCommand.resumeUnfinished(store, crawler, ExecutionMode.VIRTUAL)).isEqualTo(1);
            CrawlJob job = crawler.job(id).orElseThrow();
            assertThat(job.awaitSummary().status()).isEqualTo("done");

            assertThat(store.countPages(id, 200)).isEqualTo(pagesTotal); // nothing lost
            assertThat(store.countPages(id, null)).isEqualTo(2 * pagesTotal); // each URL once: pages + private links
            assertThat(store.job(id).orElseThrow().status()).isEqualTo("done");
            FarmCounters.Snapshot end = farm.counters();
            assertThat(end.maxFetchesOfOneUrl()).isLessThanOrEqualTo(2); // in flight at the stop: fetched again, once
            assertThat(end.robotsViolations()).isZero();
            long refetchedPages = end.byKind().get("page") - pagesTotal;
            if (signal.equals("SIGTERM")) {
                assertThat(refetchedPages).isZero(); // a graceful stop stores what it fetched
            } else {
                assertThat(refetchedPages).isLessThanOrEqualTo(pagesTotal - storedAtStop);
            }
        }
    }
}
