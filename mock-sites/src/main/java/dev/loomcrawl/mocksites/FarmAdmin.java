package dev.loomcrawl.mocksites;

import com.github.tomakehurst.wiremock.admin.Router;
import com.github.tomakehurst.wiremock.extension.AdminApiExtension;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;

/**
 * The farm's admin endpoints, beside WireMock's own under {@code /__admin}:
 * {@code GET /__admin/farm/counters}, {@code POST /__admin/farm/reset}, {@code GET /__admin/farm/seeds}.
 */
final class FarmAdmin implements AdminApiExtension {
    private final FarmCounters counters;
    private final java.util.function.Supplier<SiteGraph> graph;

    FarmAdmin(FarmCounters counters, java.util.function.Supplier<SiteGraph> graph) {
        this.counters = counters;
        this.graph = graph;
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
    }
}
