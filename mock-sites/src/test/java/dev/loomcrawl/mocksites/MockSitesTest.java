package dev.loomcrawl.mocksites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The farm over real HTTP, through the .test resolver, one fault knob at a time. */
class MockSitesTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private MockSites farm;

    @AfterEach
    void stop() {
        if (farm != null) {
            farm.close();
        }
        client.close();
    }

    private MockSites start(Faults faults, LatencyModel latency) {
        farm = MockSites.start(new FarmConfig(5, 30, 6, 0.2, 256, 7, latency, faults, true, 0));
        return farm;
    }

    private HttpResponse<String> get(int host, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(farm.graph().url(host, path)))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Faults only(java.util.function.UnaryOperator<Object[]> set) {
        Faults n = Faults.NONE;
        Object[] v = {n.serverError(), n.tooManyRequests(), n.retryAfterSeconds(), n.connectionFault(), n.slowDribble(),
            n.dribbleMillis(), n.oversized(), n.oversizedBytes(), n.redirectLinks(), n.redirectHops(), n.nonHtmlLinks(),
            n.trap(), n.robotsServerError(), n.serverErrorOnce()};
        v = set.apply(v);
        return new Faults((double) v[0], (double) v[1], (int) v[2], (double) v[3], (double) v[4], (int) v[5],
                (double) v[6], (int) v[7], (double) v[8], (int) v[9], (double) v[10], (boolean) v[11], (double) v[12],
                (boolean) v[13]);
    }

    @Test
    void hostNamesResolveToLoopbackAndPagesAreServedByHost() throws Exception {
        assertThat(InetAddress.getByName("h12.loomcrawl.test").getHostAddress()).isEqualTo("127.0.0.1");
        start(Faults.NONE, LatencyModel.fixed(0));
        HttpResponse<String> page = get(2, "/page/7");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.body()).contains("<title>" + farm.graph().title(2, 7) + "</title>");
        assertThat(get(2, "/robots.txt").body()).contains("Disallow: /private/");
        assertThat(get(2, "/sitemap.xml").body()).contains(farm.graph().url(2, "/page/29"));
        assertThat(get(1, "/page/30").statusCode()).isEqualTo(404); // only 30 pages: 0..29
        HttpResponse<String> unknown = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + farm.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("unknown host");
    }

    @Test
    void latencyIsApplied() throws Exception {
        start(Faults.NONE, LatencyModel.fixed(300));
        long start = System.nanoTime();
        get(0, "/");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(290), Duration.ofSeconds(5));
    }

    @Test
    void serverErrors() throws Exception {
        start(only(v -> { v[0] = 1.0; return v; }), LatencyModel.fixed(0));
        assertThat(get(0, "/page/1").statusCode()).isIn(500, 502, 503);
        assertThat(farm.counters().byKind()).containsEntry("5xx", 1L);
    }

    @Test
    void aPageWhoseServerErrorsComeOnceFailsOnceUntilTheFarmIsReset() throws Exception {
        start(only(v -> { v[0] = 1.0; v[13] = true; return v; }), LatencyModel.fixed(0));
        assertThat(get(0, "/page/1").statusCode()).isIn(500, 502, 503);
        assertThat(get(0, "/page/1").statusCode()).as("its retry").isEqualTo(200);
        assertThat(get(0, "/page/1").statusCode()).isEqualTo(200);
        assertThat(get(1, "/page/1").statusCode()).as("another host's page of that number").isIn(500, 502, 503);
        assertThat(farm.counters().byKind()).containsEntry("5xx", 2L).containsEntry("page", 2L);
        farm.reset(); // a bench's next run meets the same faults
        assertThat(get(0, "/page/1").statusCode()).isIn(500, 502, 503);
    }

    @Test
    void tooManyRequestsCarryRetryAfterAndTheFarmCountsRequestsInsideIt() throws Exception {
        start(only(v -> { v[1] = 1.0; v[2] = 30; return v; }), LatencyModel.fixed(0));
        HttpResponse<String> r = get(0, "/page/1");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("30");
        get(0, "/page/2"); // too soon: inside the 30 s window
        get(1, "/page/2"); // another host: not affected
        assertThat(farm.counters().retryAfterViolations()).isEqualTo(1);
        assertThat(farm.counters().earlyRetries()).as("another URL of the host is not the 429's").isZero();
        get(0, "/page/1"); // the very URL, too soon
        assertThat(farm.counters().retryAfterViolations()).isEqualTo(2);
        assertThat(farm.counters().earlyRetries()).isEqualTo(1);
    }

    @Test
    void connectionFaultsBreakTheExchange() throws Exception {
        start(only(v -> { v[3] = 1.0; return v; }), LatencyModel.fixed(0));
        int broken = 0;
        for (int i = 0; i < 12; i++) {
            try {
                HttpResponse<String> r = get(0, "/page/" + i);
                broken += r.statusCode() == 200 && r.body().contains("</html>") ? 0 : 1;
            } catch (IOException e) {
                broken++;
            }
        }
        assertThat(broken).isEqualTo(12);
        assertThat(farm.counters().byKind().keySet()).containsAnyOf("connection-reset-by-peer", "empty-response",
                "malformed-response-chunk", "random-data-then-close");
    }

    @Test
    void slowDribbleTakesItsTimeAndCountsAsInFlightMeanwhile() throws Exception {
        start(only(v -> { v[4] = 1.0; v[5] = 600; return v; }), LatencyModel.fixed(0));
        long start = System.nanoTime();
        HttpResponse<String> r = get(0, "/page/3");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(500));
        assertThat(r.body()).contains(farm.graph().title(0, 3));
        assertThat(farm.counters().byKind()).containsEntry("dribble", 1L);
    }

    @Test
    void oversizedPages() throws Exception {
        start(only(v -> { v[6] = 1.0; v[7] = 3 << 20; return v; }), LatencyModel.fixed(0));
        assertThat(get(0, "/page/3").body().length()).isGreaterThan(3 << 20);
    }

    @Test
    void redirectChainsEndAtThePage() throws Exception {
        start(only(v -> { v[8] = 1.0; v[9] = 3; return v; }), LatencyModel.fixed(0));
        String link = farm.graph().links(0, 0).getFirst();
        assertThat(link).isEqualTo("/go/3/page/1");
        List<String> hops = new ArrayList<>();
        String path = link;
        for (int i = 0; i < 5 && path.startsWith("/go/"); i++) {
            HttpResponse<String> r = get(0, path);
            assertThat(r.statusCode()).isEqualTo(301);
            path = r.headers().firstValue("Location").orElseThrow();
            hops.add(path);
        }
        assertThat(hops).containsExactly("/go/2/page/1", "/go/1/page/1", "/page/1");
    }

    @Test
    void nonHtmlLinksAndTheTrap() throws Exception {
        start(only(v -> { v[10] = 1.0; v[11] = true; return v; }), LatencyModel.fixed(0));
        assertThat(farm.graph().links(0, 4)).contains("/files/4.pdf");
        assertThat(get(0, "/files/4.pdf").headers().firstValue("Content-Type")).hasValue("application/pdf");
        assertThat(farm.graph().links(0, 0)).contains("/calendar/1");
        String month = get(0, "/calendar/41").body();
        assertThat(month).contains("/calendar/42").contains("/calendar/41/day-");
    }

    @Test
    void robotsTxtCanFail() throws Exception {
        start(only(v -> { v[12] = 1.0; return v; }), LatencyModel.fixed(0));
        assertThat(get(0, "/robots.txt").statusCode()).isEqualTo(503);
    }

    @Test
    void countersSeeDuplicatesRobotsViolationsAndInFlightPerHost() throws Exception {
        start(Faults.NONE, LatencyModel.fixed(400));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                int page = i;
                calls.add(pool.submit(() -> get(3, "/page/" + page))); // 6 at once to host 3
            }
            calls.add(pool.submit(() -> get(4, "/page/1")));
            for (Future<HttpResponse<String>> call : calls) {
                assertThat(call.get().statusCode()).isEqualTo(200);
            }
        }
        get(3, "/page/1"); // again: a duplicate
        get(3, "/private/1"); // disallowed by robots.txt
        FarmCounters.Snapshot c = farm.counters();
        assertThat(c.requests()).isEqualTo(9);
        assertThat(c.maxInFlightPerHost()).isEqualTo(6);
        assertThat(c.busiestHost()).isEqualTo("h3.loomcrawl.test");
        assertThat(c.maxInFlight()).isEqualTo(7);
        assertThat(c.duplicateFetches()).isEqualTo(1);
        assertThat(c.robotsViolations()).isEqualTo(1);
        assertThat(c.hostsVisited()).isEqualTo(2);
        // The graph's pages served, each once: /page/1-5 of h3 and /page/1 of h4. Not /page/0 (the graph calls that
        // page "/"), nor the second /page/1, nor robots.txt's forbidden page.
        assertThat(c.pagesServed()).isEqualTo(6);

        HttpResponse<String> json = client.send(HttpRequest.newBuilder(URI.create(farm.adminUrl())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(json.body()).contains("\"duplicateFetches\" : 1");
        client.send(HttpRequest.newBuilder(URI.create(farm.adminUrl().replace("counters", "reset")))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(farm.counters().requests()).isZero();
        assertThat(farm.counters().pagesServed()).isZero();
    }

    @Test
    void badConfigurationIsRefusedWithTheFieldNamed() {
        assertThatThrownBy(() -> new FarmConfig(0, 1, 1, 0, 0, 1, LatencyModel.fixed(1), Faults.NONE, true, 0))
                .hasMessage("hosts must be between 1 and 100000, was 0");
        assertThatThrownBy(() -> LatencyModel.parse("slow")).hasMessageContaining("'slow'");
    }
}
