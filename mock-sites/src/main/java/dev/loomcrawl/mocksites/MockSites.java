package dev.loomcrawl.mocksites;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.util.List;
import java.util.StringJoiner;

/**
 * A running farm: one WireMock server on 127.0.0.1 serving every host of a {@link FarmConfig}, routed by
 * the Host header.
 *
 * <pre>{@code
 * try (MockSites farm = MockSites.start(Scenario.SEED.config())) {
 *     List<String> seeds = farm.seedUrls();         // http://h0.loomcrawl.test:PORT/ ...
 *     FarmCounters.Snapshot truth = farm.counters(); // what the farm saw
 * }
 * }</pre>
 */
public final class MockSites implements AutoCloseable {
    /** The line a farm process prints once it serves: {@code mock-sites ready on port N}. */
    public static final String READY = "mock-sites ready";

    private final WireMockServer server;
    private final FarmCounters counters;
    private final SiteGraph graph;
    private final PageChanges changes;

    private MockSites(FarmConfig config) {
        counters = new FarmCounters(config.hosts());
        SiteResponder responder = new SiteResponder(counters);
        SiteGraph[] bound = new SiteGraph[1];
        PageChanges[] changing = new PageChanges[1];
        server = new WireMockServer(options()
                .bindAddress("127.0.0.1") // loopback only, always
                .port(config.port())
                .asynchronousResponseEnabled(true) // delays are scheduled, no Jetty thread sleeps
                .asynchronousResponseThreads(FarmTuning.ASYNC_RESPONSE_THREADS)
                .containerThreads(FarmTuning.CONTAINER_THREADS)
                .jettyAcceptors(1)
                .jettyAcceptQueueSize(FarmTuning.ACCEPT_QUEUE)
                .disableRequestJournal()
                .stubRequestLoggingDisabled(true)
                .gzipDisabled(true)
                .http2PlainDisabled(true)
                .http2TlsDisabled(true)
                .extensionScanningEnabled(false)
                .extensions(responder, new FarmAdmin(counters, () -> bound[0], () -> changing[0])));
        server.start();
        graph = new SiteGraph(config, server.port());
        bound[0] = graph;
        changes = new PageChanges(graph, config.changes(), System.currentTimeMillis());
        changing[0] = changes;
        responder.bind(graph, changes);
        server.stubFor(any(anyUrl()).willReturn(ok())); // one stub; the responder writes every answer
    }

    /** Starts a farm; {@code config.port() == 0} picks a free port. */
    public static MockSites start(FarmConfig config) {
        return new MockSites(config);
    }

    /** Every change the farm's pages made until now ({@link PageChanges}). */
    public List<PageChanges.Made> changesMade() {
        return changes.madeUntil(System.currentTimeMillis());
    }

    /** How page {@code page} of host {@code host} changes. */
    public PageChanges.Kind changeKind(int host, int page) {
        return changes.kind(host, page);
    }

    public SiteGraph graph() {
        return graph;
    }

    public int port() {
        return server.port();
    }

    /** Every host's root page. */
    public List<String> seedUrls() {
        return graph.seedUrls();
    }

    /** JSON counters: {@code GET} to read, {@code POST .../reset} to clear. */
    public String adminUrl() {
        return "http://127.0.0.1:" + port() + "/__admin/farm/counters";
    }

    public FarmCounters.Snapshot counters() {
        return counters.snapshot();
    }

    /** See {@link FarmCounters#arrivalsFinding}. */
    public long arrivalsFinding(int inFlight) {
        return counters.arrivalsFinding(inFlight);
    }

    public void reset() {
        counters.reset();
    }

    /** Lines for {@code /etc/hosts}, so that crawlers outside the JVM (curl, others) find the hosts. */
    public String hostsFileSnippet() {
        List<String> names = new java.util.ArrayList<>(graph.config().hosts());
        for (int h = 0; h < graph.config().hosts(); h++) {
            names.add(SiteGraph.hostName(h));
        }
        return hostsFile(names);
    }

    /**
     * {@code names} on 127.0.0.1, in the hosts-file form the JDK's own resolver reads ({@code -Djdk.net.hosts.file}),
     * eight names a line: the JDK reads the whole file again at each lookup, and 1,000 names looked up cost a cold
     * C1-only JVM 0.35 CPU-s read so, 0.7 s one a line, 2 s all on one line.
     */
    public static String hostsFile(java.util.Collection<String> names) {
        StringBuilder out = new StringBuilder();
        StringJoiner line = null;
        int onLine = 0;
        for (String name : names) {
            if (onLine++ % 8 == 0) {
                if (line != null) {
                    out.append(line);
                }
                line = new StringJoiner(" ", "127.0.0.1 ", "\n");
            }
            line.add(name);
        }
        if (line != null) {
            out.append(line);
        }
        return out.toString();
    }

    @Override
    public void close() {
        server.stop();
    }
}
