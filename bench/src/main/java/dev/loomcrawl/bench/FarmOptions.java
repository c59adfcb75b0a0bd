package dev.loomcrawl.bench;

import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.LatencyModel;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Overrides of a scenario's farm, shared by {@code mock-sites} and {@code bench} (a picocli mixin). */
public final class FarmOptions {
    @Option(names = "--hosts", paramLabel = "N", description = "Override the scenario's number of hosts.")
    Integer hosts;

    @Option(names = "--pages-per-host", paramLabel = "N", description = "Override the scenario's pages per host.")
    Integer pagesPerHost;

    @Option(names = "--latency", paramLabel = "SPEC",
            description = "Override the scenario's latency: 300, uniform:100-500 or lognormal:300,0.5 (ms).")
    String latency;

    /** {@code config} with these overrides applied. */
    public FarmConfig apply(FarmConfig config) {
        FarmConfig out = config;
        if (hosts != null || pagesPerHost != null) {
            out = out.withSize(hosts != null ? hosts : out.hosts(), pagesPerHost != null ? pagesPerHost : out.pagesPerHost());
        }
        return latency == null ? out : out.withLatency(LatencyModel.parse(latency));
    }

    /** The same overrides as command-line arguments, for a farm in another process. */
    public List<String> asArgs() {
        List<String> args = new ArrayList<>();
        if (hosts != null) {
            args.add("--hosts=" + hosts);
        }
        if (pagesPerHost != null) {
            args.add("--pages-per-host=" + pagesPerHost);
        }
        if (latency != null) {
            args.add("--latency=" + latency);
        }
        return args;
    }
}
