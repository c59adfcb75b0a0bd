package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.mocksites.CountingServer;
import dev.loomcrawl.testkit.Http;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Politeness over the API: GET /hosts, PUT /hosts/{key} while a job runs, and the job's audit. */
class HostRoutesTest {
    private final TestServer app = new TestServer();
    private final String url = app.url;
    private final Database store = app.store;
    private final Crawler crawler = app.crawler;
    private final ApiServer server = app.server;
    private final Http http = app.http;
    private CountingServer site;

    @BeforeEach
    void start() throws Exception {
        site = new CountingServer("127.0.0.1", 511, inFlight -> 20);
    }

    @AfterEach
    void stop() {
        app.close();
        site.close();
    }

    @Test
    void aPauseStopsEveryRequestWithinASecondAndTheAuditEqualsTheServersCount() throws Exception {
        String key = "127.0.0.1:" + site.port();
        long job = http.post("/crawl", "{\"seeds\": [\"http://" + key + "/p/0\"], \"maxDepth\": 10, \"maxPages\": 1000}")
                .json().get("id").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() -> site.total.get() >= 30);

        JsonNode hosts = http.get("/hosts").json();
        JsonNode mine = find(hosts.get("hosts"), key);
        assertThat(mine.get("level").asText()).isEqualTo("host");
        assertThat(mine.get("limit").asInt()).isEqualTo(8);
        assertThat(mine.get("requests").asLong()).isPositive();

        Http.Response paused = http.call("PUT", "/hosts/" + key,
                "{\"pausedUntil\": \"" + Instant.now().plus(Duration.ofHours(1)) + "\"}", "Content-Type", "application/json");
        long answered = System.nanoTime();
        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.json().get("pausedUntil").isNull()).isFalse();
        // Watched for 1.5 s: no request reaches the server later than one second after the answer.
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
                .until(() -> site.lastArrivalNanos.get() - answered < Duration.ofSeconds(1).toNanos());
        assertThat(http.get("/crawl/" + job).json().get("status").asText()).isEqualTo("running");
        assertThat(http.get("/hosts").json().get("settings").get(key).get("pausedUntil").isNull()).isFalse();

        Http.Response resumed = http.call("PUT", "/hosts/" + key, "{\"limit\": 2}", "Content-Type", "application/json");
        assertThat(resumed.json().get("limit").asInt()).isEqualTo(2);
        assertThat(resumed.json().get("pausedUntil").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/crawl/" + job).json().get("status").asText().equals("done"));

        JsonNode audit = http.get("/crawl/" + job + "/politeness").json();
        assertThat(audit.get("politenessKey").asText()).isEqualTo("host");
        JsonNode figures = find(audit.get("keys"), key);
        assertThat(figures.get("requests").asLong()).isEqualTo(site.total.get()); // 511 pages and robots.txt
        assertThat(figures.get("maxInFlight").asInt()).isBetween(1, 8);
        assertThat(figures.get("requestsInRetryAfter").asLong()).isZero();
    }

    /** A one-off fetch that a paused key holds past its deadline says so. */
    @Test
    void aFetchHeldByAPauseSaysWhy() {
        String key = "127.0.0.1:" + site.port();
        assertThat(put("/hosts/" + key, "{\"pausedUntil\": \"" + Instant.now().plus(Duration.ofHours(1)) + "\"}")
                .status()).isEqualTo(200);
        JsonNode result = http.post("/fetch", "{\"urls\": [\"http://" + key + "/p/0\"], \"timeoutMs\": 300}").json()
                .get("results").get(0);
        assertThat(result.get("outcome").asText()).isEqualTo("cancelled");
        assertThat(result.get("detail").asText()).startsWith("not finished within 300 ms: paused by an operator, ");
        assertThat(site.total.get()).isZero();
    }

    @Test
    void badSettingsAreA400NamingTheField() {
        assertThat(put("/hosts/a.test:80", "{\"limit\": 0}").json().get("field").asText()).isEqualTo("limit");
        assertThat(put("/hosts/a.test:80", "{\"minDelayMs\": -1}").json().get("field").asText()).isEqualTo("minDelayMs");
        assertThat(put("/hosts/a.test:80", "{\"pausedUntil\": \"tomorrow\"}").json().get("field").asText())
                .isEqualTo("pausedUntil");
        assertThat(put("/hosts/a.test:80", "{\"speed\": 1}").status()).isEqualTo(400);
        assertThat(http.get("/hosts").json().get("settings").size()).isZero(); // nothing was set
        assertThat(http.get("/hosts?limit=0").status()).isEqualTo(400);
        assertThat(http.get("/crawl/999/politeness").status()).isEqualTo(404);
        assertThat(http.post("/crawl", "{\"seeds\": [\"http://a.test/\"], \"politenessKey\": \"server\"}").json()
                .get("field").asText()).isEqualTo("politenessKey");
    }

    /** A pause no gate can hold is refused, and a row an older build stored does not stop a process starting. */
    @Test
    void aFarFuturePauseIsRefusedAndABadStoredRowIsSkipped() throws Exception {
        Http.Response far = put("/hosts/example.com:80", "{\"pausedUntil\": \"2400-01-01T00:00:00Z\"}");
        assertThat(far.status()).as(far.text()).isEqualTo(400);
        assertThat(far.json().get("field").asText()).isEqualTo("pausedUntil");
        assertThat(http.get("/hosts").status()).isEqualTo(200);
        assertThat(http.get("/hosts").json().get("settings").size()).isZero();

        try (Connection c = DriverManager.getConnection(url, "sa", "");
                Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO host_settings (politeness_key, max_in_flight, min_delay_ms, paused_until)"
                    + " VALUES ('example.com:80', NULL, NULL, TIMESTAMP '2400-01-01 00:00:00')");
        }
        try (Crawler again = new Crawler(store);
                ApiServer second = ApiServer.start(ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50), again);
                Http other = Http.local(second.port())) {
            assertThat(other.get("/hosts").status()).isEqualTo(200);
            assertThat(other.get("/hosts").json().get("settings").has("example.com:80")).isFalse();
            Http.Response cleared = other.call("PUT", "/hosts/example.com:80", "{}", "Content-Type", "application/json");
            assertThat(cleared.status()).as(cleared.text()).isEqualTo(200);
        }
    }

    /** Keys no request could ever count under are refused with why, and nothing is stored. */
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:99999", "127.0.0.1:0", "a..b", "-", "com", "co.uk", "site.test",
        "www.example.com", "1.2.3", "300.1.1.1", "a.test:8o", "-a.test:80", "::1:80", "010.0.0.1", "%5B::g%5D"})
    void keysThatCanNeverMatchAreRefused(String key) {
        Http.Response r = put("/hosts/" + key, "{\"limit\": 2}");
        assertThat(r.status()).as(r.text()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo("key");
        assertThat(r.json().get("message").asText()).contains(key.replace("%5B", "[").replace("%5D", "]"));
        assertThat(http.get("/hosts").json().get("settings").size()).isZero();
        Http.Response shown = http.get("/hosts/" + key);
        assertThat(shown.status()).as(shown.text()).isEqualTo(400);
        assertThat(shown.json().get("field").asText()).isEqualTo("key");
    }

    /**
     * A key is stored as the crawler spells the keys it derives: a setting given in another spelling binds, and is
     * shown in any spelling.
     */
    @ParameterizedTest
    @CsvSource({"Example.COM:80, example.com:80", "%5B0:0:0:0:0:0:0:1%5D, [::1]", "%5B::1%5D:8080, [::1]:8080",
        "127.0.0.1:08080, 127.0.0.1:8080", "EXAMPLE.co.uk, example.co.uk"})
    void aKeyIsStoredInTheCrawlersSpelling(String given, String stored) {
        Http.Response r = put("/hosts/" + given, "{\"limit\": 2}");
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        assertThat(r.json().get("key").asText()).isEqualTo(stored);
        assertThat(http.get("/hosts").json().get("settings").has(stored)).isTrue();
        JsonNode shown = http.get("/hosts/" + given).json();
        assertThat(shown.get("key").asText()).isEqualTo(stored);
        assertThat(shown.get("limit").asInt()).isEqualTo(2);
    }

    @Test
    void aDomainKeyIsSetAndShownByItsOwnLevel() {
        Http.Response set = put("/hosts/example.co.uk", "{\"limit\": 3, \"minDelayMs\": 250}");
        assertThat(set.status()).isEqualTo(200);
        assertThat(set.json().get("level").asText()).isEqualTo("domain");
        assertThat(set.json().get("limit").asInt()).isEqualTo(3);
        assertThat(set.json().get("delayMillis").asLong()).isEqualTo(250);
        assertThat(http.get("/hosts/example.co.uk").json().get("limit").asInt()).isEqualTo(3);
        assertThat(put("/hosts/example.co.uk", "{}").json().get("limit").asInt()).isEqualTo(8); // cleared
    }

    private Http.Response put(String path, String body) {
        return http.call("PUT", path, body, "Content-Type", "application/json");
    }

    private static JsonNode find(JsonNode array, String key) {
        for (JsonNode n : array) {
            if (n.get("key").asText().equals(key)) {
                return n;
            }
        }
        throw new AssertionError(key + " not in " + array);
    }
}
