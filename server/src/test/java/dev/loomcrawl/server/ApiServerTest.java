package dev.loomcrawl.server;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
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

    private Database store;
    private Crawler crawler;
    private ApiServer server;
    private Http http;
    private final Contract contract = new Contract();

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
        if (http != null) {
            http.close();
            contract.assertHeld(); // every response of the test matched the OpenAPI document
        }
    }

    private void start(String db, ApiServer.Settings settings) {
        store = Database.open(db);
        crawler = new Crawler(store);
        server = ApiServer.start(settings, crawler);
        http = Http.local(server.port()).observe(contract::check);
    }

    private void start() {
        start(memory(), ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50));
    }

    private static String memory() {
        return "jdbc:h2:mem:api" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    }

    private static ApiServer.Settings withTokens(String token, String readToken) {
        return new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, token, readToken, Set.of(), true,
                false, ContentFormat.NONE, null);
    }

    private static String crawlBody(MockSites farm, String extra) {
        return "{\"seeds\":" + Http.parse(toJson(farm.seedUrls())) + ",\"maxDepth\":" + farm.graph().maxDepth() + extra + "}";
    }

    private static String toJson(java.util.List<String> urls) {
        return urls.stream().map(u -> "\"" + u + "\"").collect(java.util.stream.Collectors.joining(",", "[", "]"));
    }

    private JsonNode awaitFinished(long id, String... headers) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            last[0] = http.get("/crawl/" + id, headers).json();
            return Set.of("done", "cancelled", "failed").contains(last[0].get("status").asText());
        });
        return last[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "pool"})
    void jobLifecycleEndToEnd(String mode) throws Exception {
        start();
        fastFarm.reset();
        Http.Response created = http.post("/crawl", crawlBody(fastFarm, ",\"mode\":\"" + mode + "\",\"perHostConcurrency\":2"));
        assertThat(created.status()).isEqualTo(202);
        long id = created.json().get("id").asLong();
        assertThat(created.header("Location")).isEqualTo("/crawl/" + id);
        assertThat(created.json().get("mode").asText()).isEqualTo(mode);

        JsonNode done = awaitFinished(id);
        assertThat(done.get("status").asText()).isEqualTo("done");
        assertThat(done.get("summary").get("pages").asLong()).isEqualTo(100);
        assertThat(done.get("summary").get("skipped").asLong()).isEqualTo(100); // the farm's /private/ links
        assertThat(done.get("summary").get("failed").asLong()).isZero();
        assertThat(done.get("summary").get("latencyMs").get("p50").asDouble()).isGreaterThanOrEqualTo(10);
        assertThat(done.get("progress").get("pages").asLong()).isEqualTo(100);
        assertThat(fastFarm.counters().maxInFlightPerHost()).isLessThanOrEqualTo(2);
        assertThat(fastFarm.counters().duplicateFetches()).isZero();

        JsonNode list = http.get("/crawl?limit=5").json();
        assertThat(list.get("jobs").get(0).get("id").asLong()).isEqualTo(id);
        assertThat(list.get("jobs").get(0).get("seeds")).hasSize(10);

        // Pagination: pages of 40 cover every stored row once.
        long total = http.get("/crawl/" + id + "/pages?limit=1").json().get("total").asLong();
        Set<String> urls = new HashSet<>();
        for (int offset = 0; offset < total; offset += 40) {
            http.get("/crawl/" + id + "/pages?offset=" + offset + "&limit=40").json().get("pages")
                    .forEach(p -> urls.add(p.get("url").asText()));
        }
        assertThat(urls).hasSize((int) total);
        assertThat(http.get("/crawl/" + id + "/pages?status=200&limit=1000").json().get("pages")).hasSize(100);

        Http.Response jsonl = http.get("/crawl/" + id + "/export?format=jsonl");
        assertThat(jsonl.header("Content-Type")).contains("ndjson");
        assertThat(jsonl.text().strip().lines()).hasSize((int) total)
                .allSatisfy(line -> assertThat(Http.parse(line).get("url").asText()).startsWith("http://h"));
        // Asked for gzip, as browsers and curl --compressed ask: compressed, and row for row the same.
        HttpResponse<byte[]> gzipped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(http.base() + "/crawl/" + id + "/export?format=jsonl")).header("Accept-Encoding", "gzip")
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (var in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(jsonl.text());
        }
        Http.Response csv = http.get("/crawl/" + id + "/export?format=csv");
        assertThat(csv.text().lines().count()).isEqualTo(total + 1);
        assertThat(csv.text().lines().findFirst().orElseThrow()).startsWith("url,depth,status,outcome,contentType");
        Http.Response links = http.get("/crawl/" + id + "/links?format=jsonl");
        assertThat(links.text().lines().findFirst().map(Http::parse).orElseThrow().has("to")).isTrue();
    }

    @Test
    void cancelIsDurableAtOnceAndIdempotent() {
        start();
        long id = http.post("/crawl", crawlBody(slowFarm, "")).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() ->
                http.get("/crawl/" + id).json().get("progress").get("fetching").asLong() > 0);
        Http.Response cancel = http.delete("/crawl/" + id);
        assertThat(cancel.status()).isEqualTo(202);
        assertThat(store.job(id).orElseThrow().status()).isEqualTo("cancelled"); // before the job has even stopped
        assertThat(awaitFinished(id).get("status").asText()).isEqualTo("cancelled");
        Http.Response again = http.delete("/crawl/" + id);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("status").asText()).isEqualTo("cancelled");
        assertThat(http.delete("/crawl/424242").status()).isEqualTo(404);
    }

    /**
     * Cancelling interrupts a job's threads; none of those interrupts may reach the H2 file (it closed the
     * database: every later POST /crawl a 500, and a job beside it lost its pages). 50 cancels, a job running
     * throughout, on a file database.
     */
    @Test
    void cancellingJobsOverAndOverNeverBreaksTheStore(@TempDir Path dir) {
        start("jdbc:h2:" + dir.resolve("db"), ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50));
        MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(150)));
        try {
            long beside = http.post("/crawl", crawlBody(farm, ",\"perHostConcurrency\":1")).json().get("id").asLong();
            for (int i = 0; i < 50; i++) {
                Http.Response created = http.post("/crawl", "{\"seeds\":[\"http://127.0.0.1:9/\"]}");
                assertThat(created.status()).as("POST /crawl, try %d", i).isEqualTo(202);
                Http.Response cancelled = http.delete("/crawl/" + created.json().get("id").asLong());
                assertThat(cancelled.status()).as("DELETE, try %d", i).isIn(200, 202);
            }
            assertThat(http.get("/health").json().get("status").asText()).isEqualTo("ok");
            JsonNode done = awaitFinished(beside);
            assertThat(done.get("status").asText()).isEqualTo("done");
            assertThat(done.get("summary").get("pages").asLong()).isEqualTo(100);
            assertThat(farm.counters().duplicateFetches()).as("pages fetched twice").isZero();
            assertThat(store.problem()).isEmpty();
        } finally {
            farm.close();
        }
    }

    @Test
    void statsMoveWhileAJobRuns() {
        start();
        JsonNode before = http.get("/stats").json();
        long id = http.post("/crawl", crawlBody(slowFarm, "")).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() -> http.get("/stats").json().get("fetchesInFlight").asLong() > 0);
        JsonNode during = http.get("/stats").json();
        assertThat(during.get("jobs").get("running").asLong()).isEqualTo(1);
        assertThat(during.get("busiestHosts").size()).isPositive();
        assertThat(during.get("virtualThreadsStarted").asLong()).isGreaterThan(before.get("virtualThreadsStarted").asLong());
        for (String field : new String[] {"mode", "uptimeSeconds", "pagesPerSecondLast10s", "pagesPerSecondSinceStart",
                "livePlatformThreads", "peakPlatformThreads", "heapUsedBytes", "heapMaxBytes", "latencyMs", "statuses",
                "pinnedVirtualThreadEvents", "fetchLimit", "carrierLagMs", "perHost"}) {
            assertThat(during.has(field)).as(field).isTrue();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> http.get("/stats").json().get("pages").asLong()
                > before.get("pages").asLong());
        http.delete("/crawl/" + id);
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
            {"seeds":["http://"]}                       | 400 | bad_request | seeds[0]
            {"seeds":["http://127.0.0.1:99999/"]}       | 400 | bad_request | seeds[0]
            {"seeds":["http://127.0.0.1:-1/"]}          | 400 | bad_request | seeds[0]
            {"seeds":["http://127.0.0.1:+80/"]}         | 400 | bad_request | seeds[0]
            {"seeds":["http://[google.com]/"]}          | 400 | bad_request | seeds[0]
            {"seeds":["http://ho%2Fst/"]}               | 400 | bad_request | seeds[0]
            {"seeds":["http://a.test/"],"bogus":1}      | 400 | bad_request | bogus
            {"seeds":["http://a.test/"],"maxDepth":-1}  | 400 | bad_request | maxDepth
            {"seeds":["http://a.test/"],"maxDepth":"3"} | 400 | bad_request | maxDepth
            {"seeds":["http://a.test/"],"maxDepth":null} | 400 | bad_request | maxDepth
            {"seeds":["http://a.test/"],"allowedHosts":[1]} | 400 | bad_request | allowedHosts[0]
            {"seeds":["http://a.test/"],"perHostConcurrency":0} | 400 | bad_request | perHostConcurrency
            {"seeds":["http://a.test/"],"poolSize":1e9} | 400 | bad_request | poolSize
            {"seeds":["http://a.test/"],"poolSize":5000} | 400 | bad_request | poolSize
            {"seeds":["http://a.test/"],"mode":"fibers"}| 400 | bad_request | mode
            {"seeds":["http://a.test/"],"requestTimeoutMs":0} | 400 | bad_request | requestTimeoutMs
            {"seeds":["http://a.test/"],"warc":"/tmp/x.warc"} | 400 | bad_request | warc
            {"seeds":["http://a.test/"],"extract":{"t":"h[[["}} | 400 | bad_request | extract.t
            {"seeds":"http://a.test/"}                  | 400 | bad_request | seeds
            {"seeds":["http://a.test/"],"denyPatterns":["(a)\\\\1"]} | 400 | bad_request | denyPatterns[0]
            {"seeds":["http://a.test/"],"denyPatterns":["(?=a)b"]} | 400 | bad_request | denyPatterns[0]
            {"seeds":["http://a.test/"],"allowPatterns":["/ok/","(?=a)b"]} | 400 | bad_request | allowPatterns[1]
            {"seeds":["http://a.test/"],"revisit":{"min":"PT0S"}} | 400 | bad_request | revisit.min
            {"seeds":["http://a.test/"],"revisit":{"min":"garbage"}} | 400 | bad_request | revisit.min
            {"seeds":["http://a.test/"],"revisit":{"max":"P500D"}} | 400 | bad_request | revisit.max
            {"seeds":["http://a.test/"],"revisit":{}}   | 400 | bad_request | revisit
            {"seeds":["http://a.test/"],"seeds":["http://b.test/"]} | 400 | bad_request |
            """)
    void badCrawlRequestsAreRejectedAndCreateNothing(String body, int status, String error, String field) {
        start();
        Http.Response r = http.post("/crawl", body);
        assertThat(r.status()).as(r.text()).isEqualTo(status);
        assertThat(r.json().get("error").asText()).isEqualTo(error);
        assertThat(r.json().get("message").asText()).isNotBlank().doesNotContain("Exception", "\tat ");
        if (field != null) {
            assertThat(r.json().get("field").asText()).isEqualTo(field);
        }
        assertThat(http.get("/crawl").json().get("total").asLong()).isZero();
    }

    /** A body that is not JSON is said with where the parser stopped, in plain words. */
    @Test
    void malformedJsonSaysWhereItStopped() {
        start();
        Http.Response r = http.post("/crawl", "{\"seeds\": [\"http://a.test/\"],\n \"maxDepth\": }");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("message").asText()).startsWith("malformed JSON at line 2, column ")
                .doesNotContain("Source", "StreamReadFeature", "REDACTED");
        assertThat(http.post("/crawl", "{").json().get("message").asText()).startsWith("malformed JSON at line 1")
                .doesNotContain("Source", "start marker");
    }

    @Test
    void aBodyThatIsNotUtf8IsRefused() {
        start();
        byte[] latin1 = "{\"seeds\":[\"http://caf\u00e9.test/\"]}".getBytes(StandardCharsets.ISO_8859_1);
        Http.Response r = http.send(HttpRequest.newBuilder(URI.create(http.base() + "/crawl"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(latin1)).build());
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().get("message").asText()).contains("UTF-8");
        assertThat(http.get("/crawl").json().get("total").asLong()).isZero();
    }

    @Test
    void otherErrorsShareTheShape() {
        start();
        Map<String, Http.Response> cases = Map.of(
                "413", http.post("/crawl", "{\"seeds\":[\"" + "x".repeat(1_100_000) + "\"]}"),
                "415", http.call("POST", "/crawl", null, "Content-Type", "text/plain"),
                "405", http.call("PUT", "/crawl", "{}"),
                "404 job", http.get("/crawl/999"),
                "404 id", http.get("/crawl/abc/pages"),
                "404 route", http.get("/nope"),
                "400 format", http.get("/crawl/1/export?format=xml"),
                "400 limit", http.get("/crawl?limit=0"));
        assertThat(cases.get("413").status()).isEqualTo(413);
        assertThat(cases.get("415").status()).isEqualTo(415);
        assertThat(cases.get("405").status()).isEqualTo(405);
        assertThat(cases.get("405").header("Allow")).isEqualTo("GET, POST");
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
        assertThat(http.get("/crawl").json().get("total").asLong()).isZero();
    }

    @Test
    void aTokenGuardsEveryRouteButHealth() {
        start(memory(), withTokens("s3cret", "peek"));
        String body = crawlBody(fastFarm, "");
        Http.Response refused = http.post("/crawl", body);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(http.post("/crawl", body, "Authorization", "Bearer wrong").json().get("error").asText())
                .isEqualTo("unauthorized");
        for (String path : new String[] {"/crawl", "/stats", "/crawl/1", "/crawl/1/pages", "/crawl/1/export", "/openapi.json"}) {
            assertThat(http.get(path).status()).as(path).isEqualTo(401);
        }
        assertThat(http.get("/health").status()).isEqualTo(200);
        Http.Response ok = http.post("/crawl", body, "Authorization", "bearer s3cret"); // the scheme in any case
        assertThat(ok.status()).isEqualTo(202);
        long id = ok.json().get("id").asLong();
        assertThat(http.get("/crawl", "Authorization", "Bearer peek").status()).isEqualTo(200); // a read-only token reads
        assertThat(http.delete("/crawl/" + id, "Authorization", "Bearer peek").status()).isEqualTo(401); // and no more
        assertThat(http.post("/crawl", body, "Authorization", "Bearer peek").status()).isEqualTo(401);
        awaitFinished(id, "Authorization", "Bearer s3cret");
    }

    /**
     * A server others can reach (serve on a non-loopback address) refuses private addresses for jobs and /fetch
     * alike, and no request can lift that: only its operator (serve --allow-private-addresses).
     */
    @Test
    void aGuardedServerReachesNoPrivateAddressWhateverARequestSays() {
        start(memory(), new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, null, null, Set.of(),
                true, true, ContentFormat.NONE, null));
        fastFarm.reset();
        for (String path : new String[] {"/crawl", "/fetch"}) {
            String body = path.equals("/crawl") ? crawlBody(fastFarm, ",\"refusePrivateAddresses\":false")
                    : "{\"urls\":[\"http://169.254.169.254/latest/meta-data/\"],\"refusePrivateAddresses\":false}";
            Http.Response r = http.post(path, body);
            assertThat(r.status()).as(path).isEqualTo(400);
            assertThat(r.json().get("field").asText()).isEqualTo("refusePrivateAddresses");
        }
        Http.Response fetched = http.post("/fetch", "{\"urls\":[\"http://169.254.169.254/latest/meta-data/\"]}");
        assertThat(fetched.json().get("results").get(0).get("detail").asText()).contains("private address");
        long id = http.post("/crawl", crawlBody(fastFarm, "")).json().get("id").asLong();
        JsonNode done = awaitFinished(id);
        assertThat(done.get("summary").get("pages").asLong()).isZero();
        assertThat(done.get("summary").get("failed").asLong()).isEqualTo(10); // every seed: its host is on loopback
        assertThat(fastFarm.counters().requests()).as("requests the farm saw").isZero();
    }

    /**
     * The guard sees a host the way the resolver does: every spelling of a private address, numeric, octal, hex,
     * short, percent-encoded, full-width, IPv6 and IPv4-mapped, or a name that resolves to one, is refused, and
     * the server listening there sees nothing.
     */
    @Test
    void aGuardedServerRefusesEverySpellingOfAPrivateAddress() {
        start(memory(), new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, null, null, Set.of(),
                true, true, ContentFormat.NONE, null));
        com.github.tomakehurst.wiremock.WireMockServer listener = new com.github.tomakehurst.wiremock.WireMockServer(
                com.github.tomakehurst.wiremock.core.WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        listener.start();
        try {
            java.util.List<String> spellings = java.util.List.of("127.0.0.1", "2130706433", "0x7f000001", "0x7F.0.0.1",
                    "0177.0.0.1", "017700000001", "127.1", "127.0.1", "0x7f.1", "127.0.0.1.", "127.000.000.001",
                    "%31%32%37.0.0.1", "\uFF11\uFF12\uFF17.0.0.1", "127.0.0.2", "[::1]", "[0:0:0:0:0:0:0:1]",
                    "[0000::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost", "LocalHost", "0.0.0.0", "0",
                    "x.a7.loomcrawl.test", "10.1", "0xa9fea9fe", "0xc0a80001", "[fe80::1]", "[fc00::1]");
            java.util.List<String> urls = spellings.stream().map(h -> "http://" + h + ":" + listener.port() + "/").toList();
            Http.Response fetched = http.post("/fetch", "{\"urls\":" + toJson(urls) + "}");
            assertThat(fetched.status()).isEqualTo(200);
            JsonNode results = fetched.json().get("results");
            assertThat(results).hasSize(spellings.size());
            for (int i = 0; i < spellings.size(); i++) {
                assertThat(results.get(i).get("detail").asText()).as(spellings.get(i)).contains("private address");
            }
            assertThat(listener.getAllServeEvents()).as("requests the listener saw").isEmpty();
        } finally {
            listener.stop();
        }
    }

    @Test
    void aRequestForAnotherHostIsMisdirected() {
        start(memory(), new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, null, null,
                Set.of("crawler.internal"), true, false, ContentFormat.NONE, null));
        Http.Response rebinding = http.call("POST", "/fetch", "{\"urls\":[\"http://127.0.0.1:1/\"]}", "Host",
                "attacker.example");
        assertThat(rebinding.status()).isEqualTo(421);
        assertThat(rebinding.json().get("error").asText()).isEqualTo("misdirected_request");
        assertThat(http.get("/health", "Host", "attacker.example:" + server.port()).status()).isEqualTo(421);
        assertThat(http.get("/health", "Host", "localhost:" + server.port()).status()).isEqualTo(200);
        assertThat(http.get("/health", "Host", "crawler.internal").status()).isEqualTo(200);
        assertThat(http.get("/health").status()).isEqualTo(200); // 127.0.0.1:PORT
    }

    @Test
    void jobsSurviveARestart(@TempDir Path dir) {
        String db = "jdbc:h2:" + dir.resolve("db");
        start(db, ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50));
        long id = http.post("/crawl", crawlBody(fastFarm, "")).json().get("id").asLong();
        JsonNode first = awaitFinished(id);
        server.close();
        crawler.close();
        store.close();
        http.close();

        start(db, ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50)); // a new process would see the same
        JsonNode again = http.get("/crawl/" + id).json();
        assertThat(again.get("status").asText()).isEqualTo("done");
        assertThat(again.get("summary").get("pages").asLong()).isEqualTo(first.get("summary").get("pages").asLong());
        assertThat(again.get("seeds")).hasSize(10);
        JsonNode summary = first.get("summary");
        assertThat(http.get("/crawl/" + id + "/pages").json().get("total").asLong())
                .isEqualTo(summary.get("pages").asLong() + summary.get("failed").asLong() + summary.get("skipped").asLong());
    }

    @Test
    void fetchAnswersInOrderAndCancelsAtTheDeadline() {
        start();
        WireMockServer site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        try {
            site.stubFor(get(urlPathEqualTo("/fast")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                    .withBody("<title>fast</title>")));
            site.stubFor(get(urlPathEqualTo("/slow")).willReturn(aResponse().withFixedDelay(5_000).withBody("late")));
            site.stubFor(get(urlPathEqualTo("/gone")).willReturn(aResponse().withStatus(404)));
            site.stubFor(get(urlPathEqualTo("/moved")).willReturn(aResponse().withStatus(301)
                    .withHeader("Location", "http://admin:s3cret@127.0.0.1:" + site.port() + "/")));
            site.stubFor(get(urlPathEqualTo("/moved-here")).willReturn(aResponse().withStatus(302)
                    .withHeader("Location", "fast#top")));
            String base = "http://127.0.0.1:" + site.port();
            Http.Response r = http.post("/fetch", "{\"urls\":[\"" + base + "/slow\",\"" + base + "/fast\",\"" + base
                    + "/gone\",\"" + base + "/moved\",\"" + base + "/moved-here\"],\"timeoutMs\":800}");
            assertThat(r.status()).isEqualTo(200);
            Iterator<JsonNode> results = r.json().get("results").elements();
            JsonNode slow = results.next();
            JsonNode fast = results.next();
            JsonNode gone = results.next();
            // a redirect is told as a crawl's row tells it: resolved, or why not, never the password it carries
            assertThat(results.next().get("detail").asText())
                    .isEqualTo("redirect not followed: URL must not carry credentials: 'http://…@127.0.0.1/…'");
            assertThat(results.next().get("detail").asText()).isEqualTo("redirect to " + base + "/fast");
            assertThat(slow.get("outcome").asText()).isEqualTo("cancelled");
            assertThat(fast.get("outcome").asText()).isEqualTo("ok");
            assertThat(fast.get("title").asText()).isEqualTo("fast");
            assertThat(gone.get("failure").asText()).isEqualTo("http-status");
            assertThat(r.json().get("millis").asDouble()).isLessThan(4_000);
            // A private address can be refused; here, on loopback, only when asked.
            Http.Response refused = http.post("/fetch", "{\"urls\":[\"" + base + "/fast\"],\"refusePrivateAddresses\":true}");
            assertThat(refused.json().get("results").get(0).get("failure").asText()).isEqualTo("connect");
            assertThat(refused.json().get("results").get(0).get("detail").asText()).contains("private address");
        } finally {
            site.stop();
        }
    }

    /** One-off fetches obey robots.txt like a crawl, asking it once per host, unless told otherwise. */
    @Test
    void fetchObeysRobotsTxtUnlessToldNotTo() {
        start();
        WireMockServer site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        try {
            site.stubFor(get(urlPathEqualTo("/robots.txt")).willReturn(aResponse().withHeader("Content-Type", "text/plain")
                    .withBody("User-agent: *\nDisallow: /private\n")));
            site.stubFor(get(urlPathEqualTo("/open")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                    .withBody("<title>open</title>")));
            site.stubFor(get(urlPathEqualTo("/private/page")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                    .withBody("<title>private</title>")));
            String base = "http://127.0.0.1:" + site.port();
            String urls = "\"" + base + "/private/page\",\"" + base + "/open\",\"" + base + "/private/page?again\"";
            Http.Response r = http.post("/fetch", "{\"urls\":[" + urls + "]}");
            assertThat(r.status()).isEqualTo(200);
            JsonNode results = r.json().get("results");
            assertThat(results.get(0).get("outcome").asText()).isEqualTo("skipped");
            assertThat(results.get(0).get("failure").asText()).isEqualTo("robots");
            assertThat(results.get(1).get("outcome").asText()).isEqualTo("ok");
            assertThat(results.get(2).get("outcome").asText()).isEqualTo("skipped");
            assertThat(site.countRequestsMatching(com.github.tomakehurst.wiremock.client.WireMock
                    .getRequestedFor(urlPathEqualTo("/private/page")).build()).getCount()).isZero();
            assertThat(site.countRequestsMatching(com.github.tomakehurst.wiremock.client.WireMock
                    .getRequestedFor(urlPathEqualTo("/robots.txt")).build()).getCount()).isEqualTo(1);

            Http.Response leave = http.post("/fetch", "{\"urls\":[\"" + base + "/private/page\"],\"respectRobots\":false}");
            assertThat(leave.json().get("results").get(0).get("outcome").asText()).isEqualTo("ok");
            assertThat(http.post("/fetch", "{\"urls\":[\"" + base + "/open\"],\"respectRobots\":1}").json()
                    .get("field").asText()).isEqualTo("respectRobots");
        } finally {
            site.stop();
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"urls":["ftp://x"]}                          | urls[0]
            {"urls":["http://127.0.0.1:99999/"]}          | urls[0]
            {"urls":["http://127.0.0.1:-1/"]}             | urls[0]
            {"urls":["http://127.0.0.1:+80/"]}            | urls[0]
            {"urls":[1]}                                  | urls[0]
            {"urls":["http://a.test/"],"timeoutMs":0}     | timeoutMs
            {"urls":["http://a.test/"],"timeoutMs":null}  | timeoutMs
            {"urls":["http://a.test/"],"other":1}         | other
            {"urls":[]}                                   | urls
            """)
    void badFetchRequestsAre400(String body, String field) {
        start();
        Http.Response r = http.post("/fetch", body);
        assertThat(r.status()).as(r.text()).isEqualTo(400);
        assertThat(r.json().get("field").asText()).isEqualTo(field);
    }

    /** A server still taking up its jobs says so: a load balancer, or a user, does not read them as interrupted. */
    @Test
    void healthSaysStartingUntilTheServerIsReady() {
        store = Database.open(memory());
        crawler = new Crawler(store);
        server = ApiServer.starting(ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50), crawler);
        http = Http.local(server.port()).observe(contract::check);
        Http.Response starting = http.get("/health");
        assertThat(starting.status()).isEqualTo(503);
        assertThat(starting.json().get("status").asText()).isEqualTo("starting");
        server.ready();
        assertThat(http.get("/health").json().get("status").asText()).isEqualTo("ok");
    }

    @Test
    void openApiDocumentsExactlyTheRoutes() {
        start();
        JsonNode spec = http.get("/openapi.json").json();
        assertThat(spec.get("openapi").asText()).startsWith("3.");
        Set<String> documented = new HashSet<>();
        spec.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> documented.add(method.toUpperCase() + " " + path.getKey())));
        Set<String> served = new HashSet<>();
        server.routes().forEach(route -> served.add(route.method().name() + " " + route.path()));
        assertThat(documented).isEqualTo(served);
        assertThat(http.get("/health").json().get("status").asText()).isEqualTo("ok");
    }
}
