package dev.loomcrawl.mocksites;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Answers every request of the farm from its path and Host header: one catch-all stub, no stub per page.
 * Delays are WireMock's asynchronous ones, so no Jetty thread sleeps through a response's latency.
 */
final class SiteResponder implements ResponseDefinitionTransformerV2 {
    static final String NAME = "loomcrawl-site";
    private static final Fault[] CONNECTION_FAULTS = {Fault.CONNECTION_RESET_BY_PEER, Fault.EMPTY_RESPONSE,
            Fault.MALFORMED_RESPONSE_CHUNK, Fault.RANDOM_DATA_THEN_CLOSE};
    private static final int[] SERVER_ERRORS = {500, 502, 503};
    private static final byte[] PDF = "%PDF-1.4\n% loomcrawl mock document\n%%EOF\n".getBytes();

    private final FarmCounters counters;
    // Set once the server has its port: pages carry absolute links to other hosts on that port.
    private volatile SiteGraph graph;
    private volatile PageChanges changes;
    private volatile String oversizedFiller = "";

    SiteResponder(FarmCounters counters) {
        this.counters = counters;
    }

    void bind(SiteGraph siteGraph, PageChanges pageChanges) {
        changes = pageChanges;
        Faults faults = siteGraph.config().faults();
        oversizedFiller = faults.oversized() > 0 ? siteGraph.filler(faults.oversizedBytes()) : "";
        graph = siteGraph;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public boolean applyGlobally() {
        return true;
    }

    /**
     * What the farm decided for one request.
     *
     * @param graphPage the request named one of the site graph's pages as its links name them ({@link
     *     SiteGraph#pagePath}), whatever the page's answer: what the farm's {@code pagesServed} counts
     */
    private record Served(String kind, ResponseDefinitionBuilder response, long extraMillis, boolean success,
            boolean disallowed, int retryAfterSeconds, boolean graphPage) {
        Served(String kind, ResponseDefinitionBuilder response, long extraMillis, boolean success, boolean disallowed,
                int retryAfterSeconds) {
            this(kind, response, extraMillis, success, disallowed, retryAfterSeconds, false);
        }

        Served ofGraphPage() {
            return new Served(kind, response, extraMillis, success, disallowed, retryAfterSeconds, true);
        }

        static Served ok(String kind, ResponseDefinitionBuilder response) {
            return new Served(kind, response, 0, true, false, 0);
        }

        static Served failed(String kind, ResponseDefinitionBuilder response) {
            return new Served(kind, response, 0, false, false, 0);
        }
    }

    @Override
    public ResponseDefinition transform(ServeEvent serveEvent) {
        SiteGraph graph = this.graph;
        if (graph == null) {
            return new ResponseDefinition(503, "starting\n");
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int host = graph.hostIndex(serveEvent.getRequest().getHeader("Host"));
        String url = serveEvent.getRequest().getUrl();
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        int delay = graph.config().latency().sample(random);
        Served outcome = host < 0 ? unknownHost() : route(graph, host, path, random, serveEvent);
        counters.record(host, path, delay + outcome.extraMillis(), outcome.kind(), outcome.success(),
                outcome.disallowed(), outcome.graphPage());
        if (outcome.retryAfterSeconds() > 0) {
            counters.retryAfter(host, path, delay, outcome.retryAfterSeconds()); // after recording this very request
        }
        return outcome.response().withFixedDelay(host < 0 ? 0 : delay).build();
    }

    private Served route(SiteGraph graph, int host, String path, ThreadLocalRandom random, ServeEvent request) {
        int pages = graph.config().pagesPerHost();
        boolean changing = graph.config().changes().any();
        if (path.equals("/")) {
            return (changing ? changing(host, 0, request) : page(graph, host, 0, random)).ofGraphPage();
        }
        if (path.startsWith("/page/")) {
            int page = SiteGraph.parseIndex(path, 6, path.length());
            if (page < 0 || page >= pages) {
                return notFound();
            }
            Served outcome = changing ? changing(host, page, request) : page(graph, host, page, random);
            return page > 0 ? outcome.ofGraphPage() : outcome; // the root is "/" in every link, not "/page/0"
        }
        if (changing && path.startsWith("/moved/")) {
            int page = SiteGraph.parseIndex(path, 7, path.length());
            return page < 0 || page >= pages ? notFound()
                    : Served.ok("page", html(graph.html("moved " + graph.title(host, page), graph.links(host, page))));
        }
        if (path.equals("/robots.txt")) {
            if (random.nextDouble() < graph.config().faults().robotsServerError()) {
                return Served.failed("robots-5xx", status(503));
            }
            return Served.ok("robots", text("text/plain; charset=utf-8", graph.robotsTxt()));
        }
        if (path.equals("/sitemap.xml")) {
            return Served.ok("sitemap", text("application/xml", graph.sitemapXml(host)));
        }
        if (path.startsWith("/private/")) {
            return new Served("private", html(graph.html("private", java.util.List.of())), 0, true, true, 0);
        }
        if (path.startsWith("/files/")) {
            return Served.ok("not-html", status(200).withHeader("Content-Type", "application/pdf").withBody(PDF));
        }
        if (path.startsWith("/go/")) {
            return redirect(path);
        }
        if (path.startsWith("/calendar/") && graph.config().faults().trap()) {
            int end = path.indexOf('/', 10);
            int month = SiteGraph.parseIndex(path, 10, end < 0 ? path.length() : end);
            return Served.ok("trap", html(graph.calendarHtml(path, Math.max(month, 0))));
        }
        return notFound();
    }

    private Served page(SiteGraph graph, int host, int page, ThreadLocalRandom random) {
        Faults f = graph.config().faults();
        if (f.any()) {
            double r = random.nextDouble();
            if ((r -= f.connectionFault()) < 0) {
                Fault fault = CONNECTION_FAULTS[random.nextInt(CONNECTION_FAULTS.length)];
                return Served.failed(fault.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                        ResponseDefinitionBuilder.responseDefinition().withFault(fault));
            }
            if ((r -= f.serverError()) < 0) {
                if (f.serverErrorOnce() && !counters.firstServerError(host, page)) {
                    return Served.ok("page", html(graph.pageHtml(host, page))); // it has had its error
                }
                return Served.failed("5xx", status(SERVER_ERRORS[random.nextInt(SERVER_ERRORS.length)]));
            }
            if ((r -= f.tooManyRequests()) < 0) {
                return new Served("429", status(429).withHeader("Retry-After", String.valueOf(f.retryAfterSeconds())),
                        0, false, false, f.retryAfterSeconds());
            }
            if ((r -= f.slowDribble()) < 0) {
                return new Served("dribble", html(graph.pageHtml(host, page)).withChunkedDribbleDelay(20, f.dribbleMillis()),
                        f.dribbleMillis(), true, false, 0);
            }
            if ((r -= f.oversized()) < 0) {
                return Served.ok("oversized", html(graph.html(graph.title(host, page), graph.links(host, page))
                        + oversizedFiller));
            }
        }
        return Served.ok("page", html(graph.pageHtml(host, page)));
    }

    /**
     * A page of a farm whose pages change ({@link PageChanges}): its current version with its validators, a 304
     * to a request that has it, a 410 once it is gone, a 301 once it moved.
     */
    private Served changing(int host, int page, ServeEvent request) {
        PageChanges.State state = changes.state(host, page, System.currentTimeMillis());
        if (state.away()) {
            return state.kind() == PageChanges.Kind.GONE ? Served.failed("gone", status(410))
                    : Served.ok("moved", status(301).withHeader("Location", "/moved/" + page));
        }
        String etag = PageChanges.etag(host, page, state);
        String lastModified = PageChanges.lastModified(state);
        if (PageChanges.notModified(request.getRequest().getHeader("If-None-Match"),
                request.getRequest().getHeader("If-Modified-Since"), etag, state)) {
            return Served.ok("not-modified", status(304).withHeader("ETag", etag).withHeader("Last-Modified",
                    lastModified));
        }
        return Served.ok("page", html(changes.html(host, page, state)).withHeader("ETag", etag)
                .withHeader("Last-Modified", lastModified));
    }

    private Served redirect(String path) {
        // /go/{hops}/page/{n} -> /go/{hops-1}/page/{n} ... -> /page/{n}
        int slash = path.indexOf('/', 4);
        int hops = slash < 0 ? -1 : SiteGraph.parseIndex(path, 4, slash);
        if (hops < 1 || !path.startsWith("/page/", slash)) {
            return notFound();
        }
        String rest = path.substring(slash);
        String next = hops == 1 ? rest : "/go/" + (hops - 1) + rest;
        return Served.ok("redirect", status(301).withHeader("Location", next));
    }

    private static Served unknownHost() {
        return Served.failed("unknown-host", text("text/plain; charset=utf-8",
                "loomcrawl mock-sites: unknown host; use h<N>." + SiteGraph.DOMAIN + " (see the README)\n")
                .withStatus(404));
    }

    private static Served notFound() {
        return Served.failed("not-found", text("text/plain; charset=utf-8", "not found\n").withStatus(404));
    }

    private static ResponseDefinitionBuilder status(int code) {
        return ResponseDefinitionBuilder.responseDefinition().withStatus(code);
    }

    private static ResponseDefinitionBuilder text(String contentType, String body) {
        return status(200).withHeader("Content-Type", contentType).withBody(body);
    }

    private static ResponseDefinitionBuilder html(String body) {
        return text("text/html; charset=utf-8", body);
    }
}
