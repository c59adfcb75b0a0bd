package dev.loomcrawl.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * {@code GET /}: the live dashboard, a static page that polls {@code /stats} and {@code /crawl}. Its files hold
 * no data, so they need no token; the page asks for the token and sends it as a header on its own requests.
 * Everything is served from this jar (Chart.js from its WebJar): no CDN, works offline.
 */
final class Dashboard {
    private record Asset(String mediaType, byte[] bytes) {}

    /** Scripts and styles only from this server; no inline script, no framing by other sites. */
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

    private final Asset page = load("/dashboard/index.html", "text/html; charset=utf-8");
    private final Map<String, Asset> assets = Map.of(
            "dashboard.js", load("/dashboard/dashboard.js", "text/javascript; charset=utf-8"),
            "dashboard.css", load("/dashboard/dashboard.css", "text/css; charset=utf-8"),
            "chart.umd.min.js", load("/META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.min.js",
                    "text/javascript; charset=utf-8"));

    static boolean isPublic(String path) {
        return path.equals("/") || path.startsWith("/assets/");
    }

    void page(Context ctx) {
        ctx.header("Content-Security-Policy", POLICY);
        send(ctx, page);
    }

    void asset(Context ctx) {
        Asset asset = assets.get(ctx.pathParam("file"));
        if (asset == null) {
            throw new ApiError(404, "not_found", "no such asset: " + ctx.pathParam("file"), null);
        }
        ctx.header("Cache-Control", "max-age=300");
        send(ctx, asset);
    }

    private static void send(Context ctx, Asset asset) {
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.contentType(asset.mediaType()).result(asset.bytes());
    }

    private static Asset load(String resource, String mediaType) {
        try (InputStream in = Dashboard.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new Asset(mediaType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
