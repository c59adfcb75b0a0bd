package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.testkit.Http;
import dev.loomcrawl.testkit.TestSite;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A continuous job over the API: its change feed as Server-Sent Events, read live, with a reconnect. */
class ChangeStreamTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestServer app = new TestServer();
    private final Database store = app.store;
    private final ApiServer server = app.server;
    private final Http http = app.http;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() {
        client.close();
        app.close();
    }

    /** One SSE event as received: its id and its data. */
    private record Event(long id, JsonNode data) {}

    /** Reads {@code n} events from the stream, then hangs up. */
    private List<Event> read(long job, int n, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/crawl/" + job + "/changes")).timeout(Duration.ofSeconds(30));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<Event> events = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            long id = -1;
            String kind = null;
            String line;
            while (events.size() < n && (line = lines.readLine()) != null) {
                if (line.startsWith("id:")) {
                    id = Long.parseLong(line.substring(3).strip());
                } else if (line.startsWith("event:")) {
                    kind = line.substring(6).strip();
                } else if (line.startsWith("data:") && "change".equals(kind)) {
                    events.add(new Event(id, JSON.readTree(line.substring(5).strip())));
                }
            }
        }
        return events;
    }

    @Test
    void aClientThatReconnectsWithLastEventIdMissesNothing() throws Exception {
        try (TestSite site = new TestSite()) {
            site.tree(8, 0);
            Http.Response created = http.post("/crawl", "{\"seeds\":[\"" + site.url("/p/0") + "\"],\"respectRobots\":false,"
                    + "\"revisit\":{\"min\":\"PT1S\",\"max\":\"PT2S\"}}");
            assertThat(created.status()).isEqualTo(202);
            long job = created.json().get("id").asLong();

            List<Event> first = read(job, 5, null);
            List<Event> rest = read(job, 8, String.valueOf(first.getLast().id()));
            List<Long> ids = new ArrayList<>(first.stream().map(Event::id).toList());
            ids.addAll(rest.stream().map(Event::id).toList());
            assertThat(ids).isSorted().doesNotHaveDuplicates();
            // Nothing between the two connections went missing: the ids are those the store holds, in a row.
            List<Long> stored = store.changesAfter(job, 0, 13).stream().map(c -> c.id()).toList();
            assertThat(ids).isEqualTo(stored);
            assertThat(first.getFirst().data().get("kind").asText()).isEqualTo("new");
            assertThat(first.getFirst().data().get("url").asText()).isEqualTo(site.url("/p/0"));
            assertThat(rest.stream().map(e -> e.data().get("kind").asText())).contains("unchanged"); // the revisits

            // Counted by kind on /metrics, and in the job's progress.
            String metrics = http.get("/metrics").text();
            assertThat(metrics).containsPattern("loomcrawl_changes_total\\{kind=\"new\"} [1-9]");
            JsonNode progress = http.get("/crawl/" + job).json().get("progress");
            assertThat(progress.get("changes").get("new").asLong()).isEqualTo(8);
            // A job that never ends: its progress is what is due and what the revisits found, not a queue to empty.
            assertThat(progress.get("continuous").asBoolean()).isTrue();
            assertThat(progress.get("due").asLong()).isBetween(0L, progress.get("queued").asLong());
            assertThat(progress.get("queued").asLong()).isPositive(); // the 8 URLs wait for their next visit

            assertThat(http.get("/crawl/" + job + "/changes?after=x").status()).isEqualTo(400);
            assertThat(http.get("/crawl/999/changes").status()).isEqualTo(404);
            assertThat(http.delete("/crawl/" + job).status()).isIn(200, 202);
        }
    }

    /**
     * A webhook whose receiver does not take events is told on {@code GET /crawl/{id}}: why, since when, how many
     * tries, how many events wait; never with the URL's path, where receivers keep their tokens.
     */
    @Test
    void aWebhookThatFailsIsToldOnTheJob() throws Exception {
        try (TestSite site = new TestSite()) {
            site.tree(4, 0);
            String hook = "http://127.0.0.1:" + server.port() + "/hook/T0KEN"; // no such route here: 404
            Http.Response created = http.post("/crawl", "{\"seeds\":[\"" + site.url("/p/0") + "\"],\"respectRobots\":false,"
                    + "\"revisit\":{\"min\":\"PT1M\"},\"webhook\":{\"url\":\"" + hook + "\",\"secret\":\"s\"}}");
            assertThat(created.status()).as(created.text()).isEqualTo(202);
            long job = created.json().get("id").asLong();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                JsonNode w = http.get("/crawl/" + job).json().get("webhook");
                return w.path("pending").asLong() == 4 && !w.path("failing").isNull();
            });
            JsonNode webhook = http.get("/crawl/" + job).json().get("webhook");
            assertThat(webhook.get("failing").asText()).isEqualTo("answered HTTP 404");
            assertThat(webhook.get("tries").asInt()).isPositive();
            assertThat(webhook.get("delivered").asLong()).isZero();
            assertThat(webhook.get("failingSince").asText()).isNotEmpty();
            assertThat(http.get("/crawl").text()).contains("answered HTTP 404").doesNotContain("T0KEN");
            // and on /metrics, for an alert: how many wait, and for how long the receiver has refused them
            String metrics = http.get("/metrics").text();
            assertThat(metrics).contains("loomcrawl_job_webhook_pending{job=\"" + job + "\",mode=\"virtual\"} 4.0")
                    .containsPattern("loomcrawl_job_webhook_failing_seconds\\{job=\"" + job + "\",mode=\"virtual\"} "
                            + "(0\\.\\d*[1-9]|[1-9][\\d.]*)"); // more than 0
            // the job is left running: closing the server suspends it at once, where an ended job gives its
            // webhook 30 s to take what is left
        }
    }

    @Test
    void badFreshnessSettingsAreRefusedNamingTheField() {
        String seed = "\"seeds\":[\"http://127.0.0.1:1/\"]";
        Http.Response r = http.post("/crawl", "{" + seed + ",\"revisit\":{\"min\":\"PT1M\",\"max\":\"PT30S\"}}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("revisit.max");
        r = http.post("/crawl", "{" + seed + ",\"revisit\":{\"min\":\"soon\",\"max\":\"P7D\"}}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("revisit.min");
        // one rule with the CLI's: either bound may be left out
        r = http.post("/crawl", "{" + seed + ",\"revisit\":{\"min\":\"PT1M\"}}");
        assertThat(r.status()).as(r.text()).isEqualTo(202);
        http.delete("/crawl/" + r.json().get("id").asLong());
        r = http.post("/crawl", "{" + seed + ",\"webhook\":{\"url\":\"ftp://x\",\"secret\":\"s\"}}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("webhook.url");
        r = http.post("/crawl", "{" + seed + ",\"webhook\":{\"url\":\"http://127.0.0.1:9/\"}}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("webhook.secret");
        // a one-pass job keeps no change events, so a webhook on it would never be called
        r = http.post("/crawl", "{" + seed + ",\"webhook\":{\"url\":\"http://127.0.0.1:9/\",\"secret\":\"s\"}}");
        assertThat(r.status()).as(r.text()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("webhook");
    }
}
