package dev.loomcrawl.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.Parameters;
import com.github.tomakehurst.wiremock.extension.ServeEventListener;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WireMock server on a free loopback port serving a binary tree of pages, {@code /p/0} the root and
 * {@code /p/i} linking to {@code /p/2i+1} and {@code /p/2i+2}, plus spellings of links that must
 * normalise to pages already seen. It counts, at the server, requests per path and requests in flight.
 */
public final class TestSite implements AutoCloseable {
    public final WireMockServer server;
    public final Counter counter = new Counter();

    private final boolean https;

    public TestSite() {
        this(null, null);
    }

    private TestSite(java.nio.file.Path keyStore, String password) { // both null: plain http
        https = keyStore != null;
        WireMockConfiguration config = options()
                .bindAddress("127.0.0.1")
                .asynchronousResponseEnabled(true)
                .asynchronousResponseThreads(8)
                .disableRequestJournal()
                .extensions(counter);
        if (https) {
            config.httpDisabled(true).dynamicHttpsPort().keystorePath(keyStore.toString()).keystoreType("PKCS12")
                    .keystorePassword(password).keyManagerPassword(password);
        } else {
            config.dynamicPort();
        }
        server = new WireMockServer(config);
        server.start();
    }

    /** A site served over https only, with the key and certificate in {@code keyStore} (PKCS #12). */
    public static TestSite https(java.nio.file.Path keyStore, String password) {
        return new TestSite(keyStore, password);
    }

    /** Pages 0..n-1 of the tree, each answering after {@code delayMs}. */
    public TestSite tree(int n, int delayMs) {
        for (int i = 0; i < n; i++) {
            StringBuilder html = new StringBuilder("<html><head><title>Page " + i + "</title></head><body><p>page ")
                    .append(i).append("</p>");
            for (int child : new int[] {2 * i + 1, 2 * i + 2}) {
                if (child < n) {
                    html.append("<a href=\"/p/").append(child).append("\">child</a> ");
                }
            }
            // Other spellings of pages that exist: all must normalise to a URL already seen.
            html.append("<a href=\"/p/0#top\">root</a> <a href=\"").append(url("/p/" + i)).append("\">self</a>")
                    .append("<a href=\"/x/../p/").append(i).append("\">dots</a>")
                    .append("<a href=\"mailto:someone@example.com\">mail</a></body></html>");
            stub("/p/" + i, html(html.toString()).withFixedDelay(delayMs));
        }
        return this;
    }

    public TestSite stub(String path, ResponseDefinitionBuilder response) {
        server.stubFor(get(urlPathEqualTo(path)).willReturn(response));
        return this;
    }

    public static ResponseDefinitionBuilder html(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "text/html; charset=utf-8").withBody(body);
    }

    public String url(String path) {
        return https ? "https://127.0.0.1:" + server.httpsPort() + path : "http://127.0.0.1:" + server.port() + path;
    }

    @Override
    public void close() {
        server.stop();
    }

    /**
     * Server-side truth: requests per path, and the most requests in flight at once to this host.
     *
     * <p>WireMock calls its listeners when a delayed response is scheduled, not when it is sent, so a
     * request counts as in flight from when it is matched until its stub's delay has passed: the
     * earliest moment its response can reach the client, and so the earliest the client may send the
     * next request under the same permit.
     */
    public static final class Counter implements ServeEventListener {
        public final Map<String, AtomicInteger> requestsByPath = new ConcurrentHashMap<>();
        public final AtomicInteger maxInFlight = new AtomicInteger();
        public final AtomicInteger total = new AtomicInteger();
        /** Every request's path and arrival time, in arrival order. */
        public final java.util.Queue<Map.Entry<String, Long>> arrivals = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final PriorityQueue<Long> busyUntil = new PriorityQueue<>();
        /** Every value each request header had, by lower-case name. */
        private final Map<String, java.util.Set<String>> headers = new ConcurrentHashMap<>();

        @Override
        public void afterMatch(ServeEvent serveEvent, Parameters parameters) {
            total.incrementAndGet();
            arrivals.add(Map.entry(serveEvent.getRequest().getUrl(), System.nanoTime()));
            for (var header : serveEvent.getRequest().getHeaders().all()) {
                headers.computeIfAbsent(header.key().toLowerCase(java.util.Locale.ROOT),
                        k -> ConcurrentHashMap.newKeySet()).addAll(header.values());
            }
            requestsByPath.computeIfAbsent(serveEvent.getRequest().getUrl(), k -> new AtomicInteger()).incrementAndGet();
            Integer delay = serveEvent.getResponseDefinition().getFixedDelayMilliseconds();
            long now = System.nanoTime();
            synchronized (busyUntil) {
                while (!busyUntil.isEmpty() && busyUntil.peek() <= now) {
                    busyUntil.poll();
                }
                busyUntil.add(now + TimeUnit.MILLISECONDS.toNanos(delay == null ? 0 : delay));
                maxInFlight.accumulateAndGet(busyUntil.size(), Math::max);
            }
        }

        /** Requests for pages: everything but robots.txt. */
        public int pageRequests() {
            return total.get() - requests("/robots.txt");
        }

        public int requests(String path) {
            AtomicInteger n = requestsByPath.get(path);
            return n == null ? 0 : n.get();
        }

        /** Arrival times of requests for {@code path}, in order. */
        public java.util.List<Long> arrivalsOf(String path) {
            return arrivals.stream().filter(a -> a.getKey().equals(path)).map(Map.Entry::getValue).toList();
        }

        /** Every value request header {@code name} had, across all requests. */
        public java.util.Set<String> headerValues(String name) {
            return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), java.util.Set.of());
        }

        public int duplicates() {
            return requestsByPath.values().stream().mapToInt(n -> n.get() - 1).sum();
        }

        /** Pages requested more than once; robots.txt is fetched afresh by a resumed job, rightly. */
        public int pageDuplicates() {
            return duplicates() - Math.max(0, requests("/robots.txt") - 1);
        }

        @Override
        public String getName() {
            return "counter";
        }
    }
}
