package dev.loomcrawl.api;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.ExecutionMode;
import dev.loomcrawl.crawler.PageStore;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The real service over real HTTP: port 0, a real farm, real H2. */
class ApiServerTest {
    private static final AtomicLong DB = new AtomicLong();
    private static MockSites fastFarm;
    private static MockSites slowFarm;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private PageStore store;
    private Crawler crawler;
    private ApiServer server;

    @BeforeAll
    static void farms() {
        fastFarm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(10)));
        slowFarm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(3_000)));
    }

    @AfterAll
    static void stopFarms() {
        fastFarm.close();
        slowFarm.close();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (crawler != null) {
            crawler.close();
        }
        if (store != null) {
            store.close();
        }
        http.close();
    }

    private void start(String db, String token) {
        store = PageStore.open(db);
        crawler = new Crawler(store);
        server = ApiServer.start(new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, token, true), crawler);
    }

    private void start() {
        start("jdbc:h2:mem:api" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1", null);
    }

    record Response(int status, JsonNode json, String text, HttpResponse<String> raw) {}

    private Response call(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = null;
        if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            json = Json.MAPPER.readTree(r.body());
        }
        return new Response(r.statusCode(), json, r.body(), r);
    }

    private static String crawlBody(MockSites farm, String extra) {
        return "{\"seeds\":" + Json.MAPPER.valueToTree(farm.seedUrls()) + ",\"maxDepth\":" + farm.graph().maxDepth()
                + extra + "}";
    }

    private JsonNode awaitFinished(long id) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            last[0] = call("GET", "/crawl/" + id, null).json();
            return Set.of("done", "cancelled", "failed").contains(last[0].get("status").asText());
        });
        return last[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "pool"})
    void jobLifecycleEndToEnd(String mode) throws Exception {
        start();
        fastFarm.reset();
        Response created = call("POST", "/crawl", crawlBody(fastFarm, ",\"mode\":\"" + mode + "\",\"perHostConcurrency\":2"));
        assertThat(created.status()).isEqualTo(202);
        long id = created.json().get("id").asLong();
        assertThat(created.raw().headers().firstValue("Location")).hasValue("/crawl/" + id);
        assertThat(created.json().get("mode").asText()).isEqualTo(mode);

        JsonNode done = awaitFinished(id);
        assertThat(done.get("status").asText()).isEqualTo("done");
        assertThat(done.get("summary").get("pages").asLong()).isEqualTo(100);
        assertThat(done.get("summary").get("latencyMs").get("p50").asDouble()).isGreaterThanOrEqualTo(10);
        assertThat(done.get("progress").get("pages").asLong()).isEqualTo(100);
        assertThat(fastFarm.counters().maxInFlightPerHost()).isLessThanOrEqualTo(2);
        assertThat(fastFarm.counters().duplicateFetches()).isZero();

        JsonNode list = call("GET", "/crawl?limit=5", null).json();
        assertThat(list.get("jobs").get(0).get("id").asLong()).isEqualTo(id);
        assertThat(list.get("jobs").get(0).get("seeds")).hasSize(10);

        // Pagination: 3 pages of 40 cover every stored row once.
        long total = call("GET", "/crawl/" + id + "/pages?limit=1", null).json().get("total").asLong();
        Set<String> urls = new HashSet<>();
        for (int offset = 0; offset < total; offset += 40) {
            call("GET", "/crawl/" + id + "/pages?offset=" + offset + "&limit=40", null).json().get("pages")
                    .forEach(p -> urls.add(p.get("url").asText()));
        }
        assertThat(urls).hasSize((int) total);
        assertThat(call("GET", "/crawl/" + id + "/pages?status=200&limit=1000", null).json().get("pages")).hasSize(100);

        Response jsonl = call("GET", "/crawl/" + id + "/export?format=jsonl", null);
        assertThat(jsonl.raw().headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("ndjson"));
        assertThat(jsonl.text().strip().lines()).hasSize((int) total)
                .allSatisfy(line -> assertThat(Json.MAPPER.readTree(line).get("jobId").asLong()).isEqualTo(id));
        Response csv = call("GET", "/crawl/" + id + "/export?format=csv", null);
        assertThat(csv.text().lines().count()).isEqualTo(total + 1);
        assertThat(csv.text().lines().findFirst().orElseThrow()).startsWith("jobId,url,depth,status");
    }

    @Test
    void cancelStopsARunningJobAndIsIdempotent() throws Exception {
        start();
        long id = call("POST", "/crawl", crawlBody(slowFarm, "")).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                call("GET", "/crawl/" + id, null).json().get("progress").get("fetching").asLong() > 0);
        Response cancel = call("DELETE", "/crawl/" + id, null);
        assertThat(cancel.status()).isEqualTo(202);
        assertThat(awaitFinished(id).get("status").asText()).isEqualTo("cancelled");
        Response again = call("DELETE", "/crawl/" + id, null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("status").asText()).isEqualTo("cancelled");
    }

    @Test
    void statsMoveWhileAJobRuns() throws Exception {
        start();
        JsonNode before = call("GET", "/stats", null).json();
        long id = call("POST", "/crawl", crawlBody(slowFarm, "")).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() -> call("GET", "/stats", null).json().get("fetchesInFlight").asLong() > 0);
        JsonNode during = call("GET", "/stats", null).json();
        assertThat(during.get("jobs").get("running").asLong()).isEqualTo(1);
        assertThat(during.get("busiestHosts").size()).isPositive();
        assertThat(during.get("virtualThreadsStarted").asLong()).isGreaterThan(before.get("virtualThreadsStarted").asLong());
        for (String field : new String[] {"mode", "uptimeSeconds", "pagesPerSecondLast10s", "pagesPerSecondSinceStart",
                "livePlatformThreads", "peakPlatformThreads", "heapUsedBytes", "heapMaxBytes", "latencyMs", "statuses",
                "pinnedVirtualThreadEvents"}) {
            assertThat(during.has(field)).as(field).isTrue();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> call("GET", "/stats", null).json().get("pages").asLong()
                > before.get("pages").asLong());
        call("DELETE", "/crawl/" + id, null);
        awaitFinished(id);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            {not json                                   | 400 | bad_request |
            []                                          | 400 | bad_request |
            null                                        | 400 | bad_request |
            {}                                          | 400 | bad_request | seeds
            {"seeds":[]}                                | 400 | bad_request | seeds
            {"seeds":["ftp://x"]}                       | 400 | bad_request | seeds[0]
            {"seeds":["http://ok.test/","not a url"]}   | 400 | bad_request | seeds[1]
            {"seeds":["http:///nohost"]}                | 400 | bad_request | seeds[0]
            {"seeds":["http://a.test/"],"bogus":1}      | 400 | bad_request | bogus
            {"seeds":["http://a.test/"],"maxDepth":-1}  | 400 | bad_request | maxDepth
            {"seeds":["http://a.test/"],"maxDepth":"3"} | 400 | bad_request | maxDepth
            {"seeds":["http://a.test/"],"perHostConcurrency":0} | 400 | bad_request | perHostConcurrency
            {"seeds":["http://a.test/"],"poolSize":1e9} | 400 | bad_request | poolSize
            {"seeds":["http://a.test/"],"mode":"fibers"}| 400 | bad_request | mode
            {"seeds":["http://a.test/"],"requestTimeoutMs":0} | 400 | bad_request | requestTimeoutMs
            {"seeds":"http://a.test/"}                  | 400 | bad_request | seeds
            """)
    void badCrawlRequestsAreRejectedAndCreateNothing(String body, int status, String error, String field) throws Exception {
        start();
        Response r = call("POST", "/crawl", body);
        assertThat(r.status()).isEqualTo(status);
        assertThat(r.json().get("error").asText()).isEqualTo(error);
        assertThat(r.json().get("message").asText()).isNotBlank().doesNotContain("Exception", "\tat ");
        if (field != null) {
            assertThat(r.json().get("field").asText()).isEqualTo(field);
        }
        assertThat(call("GET", "/crawl", null).json().get("total").asLong()).isZero();
    }

    @Test
    void otherErrorsShareTheShape() throws Exception {
        start();
        Map<String, Response> cases = Map.of(
                "413", call("POST", "/crawl", "{\"seeds\":[\"" + "x".repeat(1_100_000) + "\"]}"),
                "415", call("POST", "/crawl", null, "Content-Type", "text/plain"),
                "405", call("PUT", "/crawl", "{}"),
                "404 job", call("GET", "/crawl/999", null),
                "404 id", call("GET", "/crawl/abc/pages", null),
                "404 route", call("GET", "/nope", null),
                "400 format", call("GET", "/crawl/1/export?format=xml", null),
                "400 limit", call("GET", "/crawl?limit=0", null));
        assertThat(cases.get("413").status()).isEqualTo(413);
        assertThat(cases.get("415").status()).isEqualTo(415);
        assertThat(cases.get("405").status()).isEqualTo(405);
        assertThat(cases.get("404 job").status()).isEqualTo(404);
        assertThat(cases.get("404 id").status()).isEqualTo(404);
        assertThat(cases.get("404 route").status()).isEqualTo(404);
        assertThat(cases.get("400 format").status()).isIn(400, 404); // no job 1 yet: 404 comes first
        assertThat(cases.get("400 limit").status()).isEqualTo(400);
        cases.forEach((name, r) -> {
            assertThat(r.json()).as(name + ": " + r.text()).isNotNull();
            assertThat(r.json().get("error").asText()).as(name).isNotBlank();
            assertThat(r.json().has("message")).as(name).isTrue();
        });
        assertThat(call("GET", "/crawl", null).json().get("total").asLong()).isZero();
    }

    @Test
    void aTokenGuardsMutatingRequestsOnly() throws Exception {
        start("jdbc:h2:mem:token" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1", "s3cret");
        String body = crawlBody(fastFarm, "");
        assertThat(call("POST", "/crawl", body).status()).isEqualTo(401);
        assertThat(call("POST", "/crawl", body, "Authorization", "Bearer wrong").json().get("error").asText())
                .isEqualTo("unauthorized");
        Response ok = call("POST", "/crawl", body, "Authorization", "Bearer s3cret");
        assertThat(ok.status()).isEqualTo(202);
        assertThat(call("GET", "/crawl", null).status()).isEqualTo(200);
        assertThat(call("DELETE", "/crawl/" + ok.json().get("id").asLong(), null).status()).isEqualTo(401);
        awaitFinished(ok.json().get("id").asLong());
    }

    @Test
    void serveRefusesAPublicAddressWithoutAToken() {
        CrawlCommandTest.Result r = CrawlCommandTest.run("serve", "--host=192.0.2.1", "--db=jdbc:h2:mem:never");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("not loopback").contains("--token");
    }

    @Test
    void jobsSurviveARestart(@TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("db");
        start(db, null);
        long id = call("POST", "/crawl", crawlBody(fastFarm, "")).json().get("id").asLong();
        JsonNode first = awaitFinished(id);
        server.close();
        crawler.close();
        store.close();

        start(db, null); // a new process would see the same
        JsonNode again = call("GET", "/crawl/" + id, null).json();
        assertThat(again.get("status").asText()).isEqualTo("done");
        assertThat(again.get("summary").get("pages").asLong()).isEqualTo(first.get("summary").get("pages").asLong());
        assertThat(again.get("seeds")).hasSize(10);
        assertThat(call("GET", "/crawl/" + id + "/pages", null).json().get("total").asLong())
                .isEqualTo(first.get("summary").get("pages").asLong() + first.get("summary").get("failed").asLong());
    }

    @Test
    void fetchAnswersInOrderAndCancelsAtTheDeadline() throws Exception {
        start();
        WireMockServer site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        try {
            site.stubFor(get(urlPathEqualTo("/fast")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                    .withBody("<title>fast</title>")));
            site.stubFor(get(urlPathEqualTo("/slow")).willReturn(aResponse().withFixedDelay(5_000).withBody("late")));
            site.stubFor(get(urlPathEqualTo("/gone")).willReturn(aResponse().withStatus(404)));
            String base = "http://127.0.0.1:" + site.port();
            Response r = call("POST", "/fetch", "{\"urls\":[\"" + base + "/slow\",\"" + base + "/fast\",\"" + base
                    + "/gone\"],\"timeoutMs\":800}");
            assertThat(r.status()).isEqualTo(200);
            Iterator<JsonNode> results = r.json().get("results").elements();
            JsonNode slow = results.next();
            JsonNode fast = results.next();
            JsonNode gone = results.next();
            assertThat(slow.get("outcome").asText()).isEqualTo("cancelled");
            assertThat(fast.get("outcome").asText()).isEqualTo("ok");
            assertThat(fast.get("title").asText()).isEqualTo("fast");
            assertThat(gone.get("failure").asText()).isEqualTo("http-status");
            assertThat(r.json().get("millis").asDouble()).isLessThan(4_000);
            assertThat(call("POST", "/fetch", "{\"urls\":[\"ftp://x\"]}").json().get("field").asText()).isEqualTo("urls[0]");
            assertThat(call("POST", "/fetch", "{\"urls\":[\"" + base + "/fast\"],\"timeoutMs\":0}").status()).isEqualTo(400);
        } finally {
            site.stop();
        }
    }

    @Test
    void openApiDocumentsExactlyTheRoutes() throws Exception {
        start();
        JsonNode spec = call("GET", "/openapi.json", null).json();
        assertThat(spec.get("openapi").asText()).startsWith("3.");
        Set<String> documented = new HashSet<>();
        spec.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> documented.add(method.toUpperCase() + " " + path.getKey())));
        Set<String> served = new HashSet<>();
        server.routes().forEach(route -> served.add(route.method().name() + " " + route.path()));
        assertThat(documented).isEqualTo(served);
        assertThat(call("GET", "/health", null).json().get("status").asText()).isEqualTo("ok");
    }
}
