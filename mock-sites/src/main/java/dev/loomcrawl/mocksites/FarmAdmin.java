package dev.loomcrawl.mocksites;

import com.github.tomakehurst.wiremock.admin.Router;
import com.github.tomakehurst.wiremock.extension.AdminApiExtension;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;

/**
 * The farm's admin endpoints, beside WireMock's own under {@code /__admin}:
 * {@code GET /__admin/farm/counters}, {@code POST /__admin/farm/reset}, {@code GET /__admin/farm/seeds},
 * {@code GET /__admin/farm/changes} (every change the pages made, one per line: URL, kind, epoch milliseconds).
 */
final class FarmAdmin implements AdminApiExtension {
    private final FarmCounters counters;
    private final java.util.function.Supplier<SiteGraph> graph;
    private final java.util.function.Supplier<PageChanges> changes;

    FarmAdmin(FarmCounters counters, java.util.function.Supplier<SiteGraph> graph,
            java.util.function.Supplier<PageChanges> changes) {
        this.counters = counters;
        this.graph = graph;
        this.changes = changes;
    }

    @Override
    public String getName() {
        return "loomcrawl-farm-admin";
    }

    @Override
    public void contributeAdminApiRoutes(Router router) {
        router.add(RequestMethod.GET, "/farm/counters",
                (admin, serveEvent, pathParams) -> ResponseDefinition.okForJson(counters.snapshot()));
        router.add(RequestMethod.POST, "/farm/reset", (admin, serveEvent, pathParams) -> {
            counters.reset();
            return ResponseDefinition.okForJson(counters.snapshot());
        });
        router.add(RequestMethod.GET, "/farm/seeds", (admin, serveEvent, pathParams) ->
                new ResponseDefinition(200, String.join("\n", graph.get().seedUrls()) + "\n"));
        // Every change made so far, one per line: URL, kind (minor, major, gone, moved), epoch milliseconds.
        router.add(RequestMethod.GET, "/farm/changes", (admin, serveEvent, pathParams) -> {
            StringBuilder out = new StringBuilder();
            for (PageChanges.Made m : changes.get().madeUntil(System.currentTimeMillis())) {
                out.append(graph.get().url(m.host(), SiteGraph.pagePath(m.page()))).append(' ')
                        .append(m.kind().name().toLowerCase(java.util.Locale.ROOT)).append(' ')
                        .append(m.at().toEpochMilli()).append('\n');
            }
            return new ResponseDefinition(200, out.toString());
        });
    }
}
