package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ExecutionMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated request bodies against the real server: random JSON of every shape, the fields the API
 * knows filled with wrong or odd values, huge strings, odd Unicode, deep nesting, bytes that are not
 * UTF-8. Never a 5xx, always the one error shape, and every job that was created ends.
 */
class FuzzTest {
    private static final String[] FIELDS = {"seeds", "maxDepth", "maxPages", "perHostConcurrency", "maxInFlight",
        "allowedHosts", "mode", "poolSize", "requestTimeoutMs", "connectTimeoutMs", "fetchDeadlineMs", "maxRetries",
        "hostDelayMs", "respectRobots", "refusePrivateAddresses", "urls", "timeoutMs", "allowedDomains", "denyPatterns",
        "extract", "extractAll", "headers", "userAgent", "acceptTypes", "sitemaps", "storeBody", "warc"};
    private static final String[] ODD = {"", " ", "http://", "http://[::1", "javascript:alert(1)", "\u0000",
        "http://a.test/\u0000", "http://xn--nxasmq6b.test/", "http://a.test/\uD83D\uDE00", "http://\u202Eevil.test/",
        "ftp://a.test/", "http://user:pw@a.test/", "HTTP://A.TEST:99999/", "http://a.test:-1/", "//a.test/",
        "http://a.test/" + "x".repeat(5_000), "virtual", "pool", "POOL", "\uFFFF", "\uD800"};

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private Database store;
    private Crawler crawler;
    private ApiServer server;

    @BeforeEach
    void start() {
        store = Database.open("jdbc:h2:mem:fuzz" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
        server = ApiServer.start(new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 20, 1_000, null, null,
                java.util.Set.of(), false, false, dev.loomcrawl.crawler.values.ContentFormat.NONE, null), crawler);
    }

    @AfterEach
    void stop() {
        server.close();
        crawler.close();
        store.close();
        http.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/crawl", "/fetch"})
    void generatedBodiesNeverBreakTheServer(String path) throws Exception {
        Random random = new Random(path.hashCode()); // reproducible
        for (int i = 0; i < 250; i++) {
            byte[] body = body(random, i);
            String shown = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
            HttpResponse<String> r;
            try {
                r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException e) {
                // Over the 1 MB limit the server answers 413 and closes; a client still uploading may see
                // the close first. Refused either way; anything else is a failure.
                assertThat(body.length).as(shown + ": " + e).isGreaterThan(1_000_000);
                continue;
            }
            assertThat(r.statusCode()).as(shown).isLessThan(500).isIn(200, 202, 400, 413);
            if (r.statusCode() >= 400) {
                JsonNode error = Json.MAPPER.readTree(r.body());
                assertThat(error.get("error").asText()).as(shown).isNotBlank();
                assertThat(error.get("message").asText()).as(shown).doesNotContain("\tat ", "Exception:");
            }
        }
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        // No job is stuck: whatever was accepted ends by itself (unreachable .test hosts fail fast).
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> crawler.reports(0, 1_000).stream()
                    .allMatch(job -> Set.of("done", "failed", "cancelled").contains(job.status())));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("jobs still running after 30 s: " + crawler.reports(0, 1_000).stream()
                    .filter(job -> !Set.of("done", "failed", "cancelled").contains(job.status()))
                    .map(job -> store.job(job.id()).orElseThrow().config() + " " + job.progress()).toList(), e);
        }
    }

    private static byte[] body(Random random, int i) {
        return switch (i % 10) {
            case 0 -> randomJson(random, 0).getBytes(StandardCharsets.UTF_8);
            case 1 -> "[".repeat(5_000 + random.nextInt(5_000)).getBytes(StandardCharsets.UTF_8); // deep nesting
            case 2 -> ("{\"seeds\":[\"" + "\u00e9\u4e2d\uD83D\uDE00".repeat(60_000) + "\"]}").getBytes(StandardCharsets.UTF_8);
            case 3 -> {
                byte[] bytes = new byte[random.nextInt(300)];
                random.nextBytes(bytes); // not UTF-8, not JSON
                yield bytes;
            }
            case 4 -> ("{\"seeds\":[\"" + "a".repeat(1_200_000) + "\"]}").getBytes(StandardCharsets.UTF_8); // too large
            default -> knownFields(random).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** An object with some of the API's fields, each given a random (mostly wrong) value. */
    private static String knownFields(Random random) {
        StringBuilder b = new StringBuilder("{");
        int n = 1 + random.nextInt(4);
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                b.append(',');
            }
            String field = random.nextInt(3) == 0 ? (random.nextBoolean() ? "seeds" : "urls")
                    : FIELDS[random.nextInt(FIELDS.length)];
            b.append(quote(field)).append(':').append(value(random, 0));
        }
        return b.append('}').toString();
    }

    private static String value(Random random, int depth) {
        return switch (depth > 1 ? 0 : random.nextInt(9)) {
            case 0 -> String.valueOf(random.nextInt(2_000_000) - 1_000_000);
            case 1 -> List.of("1e308", "-0", "9223372036854775808", "1.5", "NaN", "0").get(random.nextInt(6));
            case 2 -> quote(ODD[random.nextInt(ODD.length)]);
            case 3, 4 -> {
                StringBuilder a = new StringBuilder("[");
                int n = random.nextInt(random.nextInt(10) == 0 ? 1_500 : 4);
                for (int i = 0; i < n; i++) {
                    a.append(i > 0 ? "," : "").append(random.nextInt(4) == 0 ? value(random, depth + 1)
                            : quote(random.nextBoolean() ? "http://h" + random.nextInt(50) + ".fuzz.test/" : ODD[random.nextInt(ODD.length)]));
                }
                yield a.append(']').toString();
            }
            case 5 -> random.nextBoolean() ? "true" : "null";
            case 6 -> "{\"nested\":" + randomJson(random, 2) + "}";
            default -> String.valueOf(random.nextInt(100));
        };
    }

    private static String randomJson(Random random, int depth) {
        if (depth > 4) {
            return "1";
        }
        return switch (random.nextInt(6)) {
            case 0 -> "{" + quote(FIELDS[random.nextInt(FIELDS.length)]) + ":" + randomJson(random, depth + 1) + "}";
            case 1 -> "[" + randomJson(random, depth + 1) + "," + randomJson(random, depth + 1) + "]";
            case 2 -> quote(ODD[random.nextInt(ODD.length)]);
            case 3 -> String.valueOf(random.nextDouble() * 1e12);
            case 4 -> "null";
            default -> "false";
        };
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
