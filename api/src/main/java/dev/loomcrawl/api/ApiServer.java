package dev.loomcrawl.api;

import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.ExecutionMode;
import dev.loomcrawl.crawler.FetchOutcome;
import dev.loomcrawl.crawler.PageStore;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The crawl service: every route in {@link #routes()}, all configuration in one {@code Javalin.create}. */
final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final Set<HandlerType> MUTATING = Set.of(HandlerType.POST, HandlerType.PUT, HandlerType.PATCH,
            HandlerType.DELETE);

    /**
     * @param token bearer token required on mutating requests; null for none (loopback only)
     * @param watchPinning stream JFR's VirtualThreadPinned events into /stats
     */
    record Settings(String host, int port, ExecutionMode mode, int poolSize, String token, boolean watchPinning) {}

    /** One route: the table the OpenAPI test checks against {@code /openapi.json}. */
    record Route(HandlerType method, String path, Handler handler) {}

    private final Settings settings;
    private final Crawler crawler;
    private final ServerStats stats;
    private final JobHandlers jobs;
    private final Javalin app;

    private ApiServer(Settings settings, Crawler crawler) {
        this.settings = settings;
        this.crawler = crawler;
        this.stats = new ServerStats(crawler, settings.mode(), settings.poolSize(), settings.watchPinning());
        this.jobs = new JobHandlers(crawler, settings.mode(), settings.poolSize());
        this.app = Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true; // a virtual thread per request
            config.jetty.host = settings.host();
            config.jetty.port = settings.port();
            config.http.maxRequestSize = 1_000_000; // larger bodies: 413
            config.http.prefer405over404 = true;
            config.startup.showJavalinBanner = false;
            config.jsonMapper(new JavalinJackson(Json.MAPPER, false));
            config.routes.before(this::authorize);
            for (Route route : routes()) {
                config.routes.addHttpHandler(route.method(), route.path(), route.handler());
            }
            config.routes.exception(ApiError.class, (e, ctx) -> ctx.status(e.status).json(e.body()));
            config.routes.exception(HttpResponseException.class, (e, ctx) -> ctx.status(e.getStatus())
                    .json(new ApiError.Body(errorCode(e.getStatus()), e.getMessage(), null)));
            config.routes.exception(Exception.class, (e, ctx) -> {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
                ctx.status(500).json(new ApiError.Body("internal", "internal error; the server log has details", null));
            });
        });
    }

    /** Starts the server; {@code settings.port() == 0} picks a free port. */
    static ApiServer start(Settings settings, Crawler crawler) {
        ApiServer server = new ApiServer(settings, crawler);
        server.app.start();
        return server;
    }

    List<Route> routes() {
        return List.of(
                new Route(HandlerType.POST, "/crawl", jobs::create),
                new Route(HandlerType.GET, "/crawl", jobs::list),
                new Route(HandlerType.GET, "/crawl/{id}", jobs::show),
                new Route(HandlerType.DELETE, "/crawl/{id}", jobs::cancel),
                new Route(HandlerType.GET, "/crawl/{id}/pages", jobs::pages),
                new Route(HandlerType.GET, "/crawl/{id}/export", jobs::export),
                new Route(HandlerType.POST, "/fetch", this::fetch),
                new Route(HandlerType.GET, "/stats", ctx -> ctx.json(stats.view(crawler.store().jobCountsByStatus()))),
                new Route(HandlerType.GET, "/health", ctx -> ctx.json(Map.of("status", "ok"))),
                new Route(HandlerType.GET, "/openapi.json", this::openApi));
    }

    int port() {
        return app.port();
    }

    private void authorize(Context ctx) {
        if (settings.token() == null || !MUTATING.contains(ctx.method())) {
            return;
        }
        String header = ctx.header("Authorization");
        byte[] given = (header == null ? "" : header).getBytes(StandardCharsets.UTF_8);
        byte[] expected = ("Bearer " + settings.token()).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, expected)) { // constant time
            throw new ApiError(401, "unauthorized", "this request needs 'Authorization: Bearer <token>'", null);
        }
    }

    private void fetch(Context ctx) throws InterruptedException {
        FetchRequest request = JobHandlers.body(ctx, FetchRequest.class);
        var urls = request.crawlUrls();
        var deadline = request.deadline();
        long start = System.nanoTime();
        List<FetchOutcome> results = crawler.fetchAll(urls, deadline);
        Map<String, Long> totals = new java.util.TreeMap<>();
        results.forEach(r -> totals.merge(r.outcome(), 1L, Long::sum));
        ctx.json(Map.of("results", results, "totals", totals,
                "millis", Math.round((System.nanoTime() - start) / 1e5) / 10.0));
    }

    private void openApi(Context ctx) throws IOException {
        try (InputStream in = ApiServer.class.getResourceAsStream("/openapi.json")) {
            ctx.contentType("application/json").result(in.readAllBytes());
        }
    }

    static String errorCode(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 401 -> "unauthorized";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            default -> "http_" + status;
        };
    }

    @Override
    public void close() {
        app.stop();
        stats.close();
    }
}
