package dev.loomcrawl.server;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.testkit.Http;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/** A job's WARC file over the API: {@code serve --warc-dir}, {@code "warc"} in {@code POST /crawl}, {@code GET /crawl/{id}/warc}. */
class WarcApiTest {
    private WireMockServer site;
    private TestServer server;
    private Http http;

    @TempDir
    Path warcDir;

    @BeforeEach
    void site() {
        site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        site.stubFor(get(urlPathEqualTo("/")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withBody("<a href='/a'>a</a> <a href='/b'>b</a> <a href='/slow'>slow</a>")));
        for (String page : new String[] {"/a", "/b"}) {
            site.stubFor(get(urlPathEqualTo(page)).willReturn(aResponse().withHeader("Content-Type", "text/html")
                    .withBody("<p>page " + page + "</p>")));
        }
        site.stubFor(get(urlPathEqualTo("/slow")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withBody("<p>at last</p>").withFixedDelay(2_000)));
    }

    @AfterEach
    void stop() {
        server.close();
        site.stop();
    }

    private void start(@Nullable Path keepWarcs) {
        server = new TestServer(new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, null, null,
                Set.of(), false, false, ContentFormat.NONE, keepWarcs));
        http = server.http;
    }

    @Test
    void aJobKeepsItsWarcFileOnTheServerAndTheApiServesItsWholeRecordsWhileItRuns() throws Exception {
        start(warcDir.toAbsolutePath());
        String seed = "http://127.0.0.1:" + site.port() + "/";
        long id = http.post("/crawl", "{\"seeds\":[\"" + seed + "\"],\"maxDepth\":1}").json().get("id").asLong();
        // While /slow is on its way, the file holds the other three exchanges, and what is served reads whole.
        await().atMost(Duration.ofSeconds(20)).until(() -> http.get("/crawl/" + id).json().at("/progress/pages")
                .asInt() >= 3);
        assertThat(http.get("/crawl/" + id).json().get("status").asText()).isEqualTo("running");
        assertThat(responses(id)).containsExactlyInAnyOrder(seed, seed + "a", seed + "b");

        await().atMost(Duration.ofSeconds(20)).until(() -> http.get("/crawl/" + id).json().get("status").asText()
                .equals("done"));
        assertThat(responses(id)).containsExactlyInAnyOrder(seed, seed + "a", seed + "b", seed + "slow");
        assertThat(http.get("/crawl/" + id).json().at("/links/warc").asText()).isEqualTo("/crawl/" + id + "/warc");
        Http.Response served = http.get("/crawl/" + id + "/warc");
        assertThat(served.header("Content-Type")).isEqualTo("application/gzip");
        assertThat(served.header("Content-Disposition")).contains("crawl-" + id + ".warc.gz");
        try (var files = Files.list(warcDir)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList()).singleElement()
                    .satisfies(name -> assertThat(name).startsWith("crawl-").endsWith(".warc.gz"));
        }

        // A job may decline; a client chooses whether, never where.
        long none = http.post("/crawl", "{\"seeds\":[\"" + seed + "a\"],\"maxDepth\":0,\"warc\":false}").json()
                .get("id").asLong();
        assertThat(http.get("/crawl/" + none + "/warc").status()).isEqualTo(404);
        assertThat(http.get("/crawl/" + none).json().get("links").has("warc")).isFalse();
        Http.Response path = http.post("/crawl", "{\"seeds\":[\"" + seed + "\"],\"warc\":\"/etc/crawl.warc\"}");
        assertThat(path.status()).isEqualTo(400);
        assertThat(path.json().get("field").asText()).isEqualTo("warc");
        assertThat(http.get("/crawl/999/warc").status()).isEqualTo(404);
    }

    @Test
    void aServerWithoutAWarcDirectoryKeepsNone() {
        start(null);
        String seed = "http://127.0.0.1:" + site.port() + "/a";
        Http.Response asked = http.post("/crawl", "{\"seeds\":[\"" + seed + "\"],\"warc\":true}");
        assertThat(asked.status()).isEqualTo(400);
        assertThat(asked.json().get("message").asText()).contains("--warc-dir");
        long id = http.post("/crawl", "{\"seeds\":[\"" + seed + "\"]}").json().get("id").asLong();
        Http.Response served = http.get("/crawl/" + id + "/warc");
        assertThat(served.status()).isEqualTo(404);
        assertThat(served.json().get("message").asText()).contains("no WARC file");
    }

    /** The target of every response record of the job's WARC file as served, read to its end by jwarc. */
    private List<String> responses(long id) throws IOException {
        List<String> targets = new ArrayList<>();
        byte[] served = http.bytes("/crawl/" + id + "/warc");
        try (WarcReader reader = new WarcReader(Channels.newChannel(new ByteArrayInputStream(served)))) {
            for (WarcRecord record : reader) {
                if (record instanceof WarcResponse response) {
                    targets.add(response.target());
                }
            }
        }
        return targets;
    }
}
