package dev.loomcrawl.server;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.FetchOutcome;
import dev.loomcrawl.crawler.values.FetchRequest;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoreException;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The crawl service: every route in {@link #routes()}, all configuration in one {@code Javalin.create}. */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    /**
     * @param host the address to listen on
     * @param mode mode of jobs that do not choose one
     * @param poolSize pool size of jobs that do not choose one
     * @param maxPoolSize most platform threads a pool-mode job may ask for
     * @param token bearer token every route but {@code /health} needs; null for none (loopback only)
     * @param readToken a second token that may only read (GET); null for none
     * @param allowedHostNames names besides the bound address and {@code localhost} that requests may carry
     *     in their {@code Host} header
     * @param watchPinning stream JFR's VirtualThreadPinned events into /stats
     * @param guardPrivateAddresses jobs and {@code POST /fetch} refuse hosts on loopback, private or link-local
     *     addresses, and no request may lift that: for a server others can reach (only its operator lifts it)
     * @param content main content of jobs and {@code POST /fetch} requests that do not choose ({@code serve --content})
     * @param warcDir where jobs keep their WARC files ({@code serve --warc-dir}), an absolute path; null: they keep none
     */
    public record Settings(String host, int port, ExecutionMode mode, int poolSize, int maxPoolSize, @Nullable String token,
            @Nullable String readToken, Set<String> allowedHostNames, boolean watchPinning, boolean guardPrivateAddresses,
            ContentFormat content, @Nullable Path warcDir) {

        /** Loopback, no token: what tests and a local user start with. */
        public static Settings local(int port, ExecutionMode mode, int poolSize) {
            return new Settings("127.0.0.1", port, mode, poolSize, 1_000, null, null, Set.of(), true, false,
                    ContentFormat.NONE, null);
        }
    }

    /** One route: the table the OpenAPI test checks against {@code /openapi.json}. */
    public record Route(HandlerType method, String path, Handler handler) {}

    private final Settings settings;
    private final Crawler crawler;
    private final ServerStats stats;
    private final Metrics metrics;
    private final Dashboard dashboard = new Dashboard();
    private final JobHandlers jobs;
    private final HostHandlers hosts;
    private final AccessGuard guard;
    private final Javalin app;
    private volatile boolean ready;

    private ApiServer(Settings settings, Crawler crawler) {
        this.settings = settings;
        this.crawler = crawler;
        this.metrics = new Metrics(crawler, settings.watchPinning());
        this.stats = new ServerStats(crawler, settings.mode(), settings.poolSize(), metrics::pinnedEvents);
        this.jobs = new JobHandlers(crawler, settings);
        this.hosts = new HostHandlers(crawler);
        this.guard = new AccessGuard(settings);
        this.app = Javalin.create(config -> {
            config.concurrency.useVirtualThreads = true; // a virtual thread per request
            config.jetty.host = settings.host();
            config.jetty.port = settings.port();
            config.http.maxRequestSize = Json.MAX_BODY; // larger bodies: 413
            config.http.prefer405over404 = true;
            config.startup.showJavalinBanner = false;
            config.jsonMapper(new io.javalin.json.JavalinJackson(Json.MAPPER, false));
            // Jetty's own answers (bad paths, URIs too long) in the API's JSON error shape, not HTML
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            config.routes.before(metrics::requestStarted);
            config.routes.before(guard::check);
            config.routes.after(metrics::requestEnded);
            for (Route route : routes()) {
                config.routes.addHttpHandler(route.method(), route.path(), route.handler());
            }
            config.routes.exception(ApiError.class, (e, ctx) -> ctx.status(e.status).json(e.body()));
            config.routes.exception(HttpResponseException.class, (e, ctx) -> {
                if (e.getStatus() == 405) {
                    ctx.header("Allow", String.join(", ", allowed(ctx.path())));
                }
                ctx.status(e.getStatus()).json(new ApiError.Body(errorCode(e.getStatus()), String.valueOf(e.getMessage()), null));
            });
            config.routes.exception(StoreException.class, (e, ctx) -> {
                LOG.error("{} {}: the store failed", ctx.method(), ctx.path(), e);
                ctx.status(503).json(new ApiError.Body("store_unavailable", "the database failed: "
                        + Passwords.hidden(String.valueOf(e.getMessage()))
                        + "; GET /health says why, and a restart reopens it", null));
            });
            config.routes.exception(Exception.class, (e, ctx) -> {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
                ctx.status(500).json(new ApiError.Body("internal", "internal error; the server log has details", null));
            });
        });
    }

    /** Starts the server, ready at once; {@code settings.port() == 0} picks a free port. */
    public static ApiServer start(Settings settings, Crawler crawler) {
        ApiServer server = starting(settings, crawler);
        server.ready();
        return server;
    }

    /**
     * Starts the server not ready yet: {@code /health} answers 503 {@code starting} until {@link #ready}, so
     * that nothing reads a job as interrupted while this process is about to take it up again.
     */
    public static ApiServer starting(Settings settings, Crawler crawler) {
        ApiServer server = new ApiServer(settings, crawler);
        try {
            server.app.start();
            server.metrics.bindJetty(server.app.jettyServer().server());
        } catch (RuntimeException e) {
            server.stats.close();
            server.metrics.close();
            throw e;
        }
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
                new Route(HandlerType.GET, "/crawl/{id}/links", jobs::links),
                new Route(HandlerType.GET, "/crawl/{id}/warc", jobs::warc),
                new Route(HandlerType.GET, "/crawl/{id}/changes", jobs::changes),
                new Route(HandlerType.GET, "/crawl/{id}/politeness", hosts::audit),
                new Route(HandlerType.GET, "/hosts", hosts::list),
                new Route(HandlerType.GET, "/hosts/{key}", hosts::show),
                new Route(HandlerType.PUT, "/hosts/{key}", hosts::put),
                new Route(HandlerType.POST, "/fetch", this::fetch),
                new Route(HandlerType.GET, "/stats", ctx -> ctx.json(stats.view(crawler.database().jobsByStatus()))),
                new Route(HandlerType.GET, "/cluster", ctx -> ctx.json(jobs.node()
                        .orElseThrow(() -> ApiError.notFound("this server is not a cluster node (serve --db=jdbc:postgresql://..."
                                + " --node-id=NAME makes it one)")).view())),
                new Route(HandlerType.GET, "/metrics", ctx -> {
                    metrics.contentType().forEach(ctx::header);
                    ctx.result(metrics.scrape());
                }),
                new Route(HandlerType.GET, "/health", this::health),
                new Route(HandlerType.GET, "/", dashboard::page),
                new Route(HandlerType.GET, "/assets/{file}", dashboard::asset),
                new Route(HandlerType.GET, "/openapi.json", this::openApi));
    }

    public int port() {
        return app.port();
    }

    /**
     * This server's crawler is a node of a cluster from now on ({@link ClusterNode#join}, once the server is
     * up and its address known): jobs are started, cancelled and reported through the node.
     */
    public void joined(ClusterNode node) {
        jobs.joined(node);
    }

    /** Methods served for {@code path}, for a 405's Allow header. */
    private List<String> allowed(String path) {
        return routes().stream().filter(r -> matchesPattern(r.path(), path)).map(r -> r.method().name())
                .distinct().sorted().collect(Collectors.toList());
    }

    private static boolean matchesPattern(String pattern, String path) {
        String[] p = pattern.split("/");
        String[] s = path.split("/");
        if (p.length != s.length) {
            return false;
        }
        for (int i = 0; i < p.length; i++) {
            if (!p[i].startsWith("{") && !p[i].equals(s[i])) {
                return false;
            }
        }
        return true;
    }

    private void fetch(Context ctx) throws InterruptedException {
        FetchRequest request = FetchBody.of(Json.object(ctx), settings.guardPrivateAddresses(), settings.content());
        long start = System.nanoTime();
        List<FetchOutcome> results = crawler.fetchAll(request);
        Map<String, Long> totals = new TreeMap<>();
        results.forEach(r -> totals.merge(r.outcome(), 1L, Long::sum));
        ctx.json(Map.of("results", results.stream().map(ApiServer::fetched).toList(), "totals", totals,
                "millis", Math.round((System.nanoTime() - start) / 1e5) / 10.0));
    }

    /** One URL's result as JSON shows it; the content fields as in a job's rows, when the request asked for them. */
    private static Map<String, Object> fetched(FetchOutcome r) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("url", r.url());
        row.put("outcome", r.outcome());
        row.put("status", r.status());
        row.put("title", r.title());
        row.put("bytes", r.bytes());
        row.put("millis", r.millis());
        row.put("failure", r.failure());
        row.put("detail", r.detail());
        row.put("noindex", r.noindex());
        if (r.content() != null) {
            Export.putContent(r.content(), row);
        }
        return row;
    }

    /** The process has taken up what it takes up at start (jobs an earlier process left): healthy from now on. */
    public void ready() {
        ready = true;
    }

    /**
     * 200 while the store answers; 503 while the process starts or once the store fails, with the reason (a
     * load balancer then stops sending).
     */
    private void health(Context ctx) {
        if (!ready) {
            ctx.status(503).json(Map.of("status", "starting",
                    "problem", "taking up the jobs an earlier process left unfinished"));
            return;
        }
        crawler.database().problem().ifPresentOrElse(
                problem -> ctx.status(503).json(Map.of("status", "failing", "problem", problem)),
                () -> ctx.json(Map.of("status", "ok")));
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
            case 414 -> "uri_too_long";
            case 421 -> "misdirected_request";
            case 431 -> "headers_too_large";
            default -> "http_" + status;
        };
    }

    @Override
    public void close() {
        app.stop();
        stats.close();
        metrics.close();
    }
}
