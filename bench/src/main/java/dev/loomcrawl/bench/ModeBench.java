package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench} without {@code --cold}: one crawler in this process, the same crawl of a farm (in a process of
 * its own) in each mode, taking turns ({@link RoundOrder}) after warm-up rounds; medians, the ceilings each mode
 * should reach, and the farm's own count of what happened.
 */
final class ModeBench {
    /** The seed benchmark's published figures: 10,000 tasks of 300 ms. */
    static final Map<String, String> SEED_PUBLISHED = Map.of(
            "virtual", "0.33-0.44 s (10,000 tasks of 300 ms)",
            "pool:200", "15.5 s (10,000 tasks of 300 ms)");

    /** The crawler's limits: per host, in flight in all, and whether the latter adapts. */
    record Limits(int perHost, int maxInFlight, boolean adaptive) {}

    /** One measured (or warm-up) crawl. */
    record Run(String mode, int round, boolean warmup, JobSummary summary, long peakHeapBytes, int peakThreads,
            double farmCpuSeconds, JsonNode farm, List<String> violations, List<Sampler.Sample> samples) {}

    /** Medians over a mode's measured runs, and what limits it. */
    record ModeResult(String mode, int runs, double seconds, double pagesPerSecond, double minPagesPerSecond,
            double maxPagesPerSecond, double p50Ms, double p95Ms, double p99Ms, double peakPlatformThreads,
            double peakHeapMb, double cpuSeconds, double cpuMsPerPage, double farmCpuSeconds, double ratioToVirtual,
            Map<String, Double> ceilings, String bindingLimit, double predictedPagesPerSecond, double achievedOfPredicted,
            String seedPublished) {}

    /** Everything, for --json and results.json. */
    record Result(String scenario, String farm, int hosts, long pages, double latencyMs, int perHost, int cores,
            String jdk, String os, List<ModeResult> modes, List<Run> runs, List<String> violations) {}

    static Result run(String mainClass, Scenario chosen, FarmConfig farmConfig, List<String> farmArgs,
            List<ModeSpec> specs, Limits limits, int warmup, int runs, Path out, PrintWriter err) throws Exception {
        List<Run> all = new ArrayList<>();
        try (FarmProcess farm = FarmProcess.start(mainClass, farmArgs, out.resolve("seeds.txt"));
             Database database = Database.open("jdbc:h2:" + out.toAbsolutePath().resolve("bench"));
             Crawler crawler = new Crawler(database,
                     new CrawlerOptions(limits.perHost(), Math.max(limits.maxInFlight(), 1), limits.adaptive()))) {
            SiteGraph graph = new SiteGraph(farmConfig, farm.port());
            int rounds = warmup + runs;
            for (int round = 0; round < rounds; round++) {
                for (ModeSpec mode : RoundOrder.of(specs, round)) { // drift hits every mode alike
                    boolean isWarmup = round < warmup;
                    CrawlConfig config = CrawlConfig.builder().seeds(farm.seeds()).maxDepth(graph.maxDepth())
                            .maxPages((int) Math.min(50_000_000, farmConfig.totalPages() * 4))
                            .perHostConcurrency(limits.perHost()).maxInFlight(limits.maxInFlight())
                            .mode(mode.mode()).poolSize(mode.poolSize()).build();
                    err.printf("bench: %s %s ...%n", isWarmup ? "warm-up" : "run " + (round - warmup + 1) + "/" + runs,
                            mode.label());
                    err.flush();
                    Run run = runOnce(crawler, farm, config, mode, round, isWarmup, limits.perHost());
                    err.printf("bench:   %.2f s, %,.1f pages/s, peak %d platform threads%s%n", run.summary().seconds(),
                            run.summary().pagesPerSecond(), run.peakThreads(),
                            run.violations().isEmpty() ? "" : "  VIOLATIONS: " + run.violations());
                    all.add(run);
                }
            }
        }
        return summarise(chosen, farmConfig, limits.perHost(), limits.maxInFlight(), specs, all);
    }

    private static Run runOnce(Crawler crawler, FarmProcess farm, CrawlConfig config, ModeSpec mode, int round,
            boolean isWarmup, int limit) throws Exception {
        farm.reset();
        System.gc(); // each run starts from the same heap, not the last run's garbage
        double farmCpuBefore = farm.cpu().map(Duration::toNanos).orElse(0L) / 1e9;
        CrawlJob job = crawler.start(config);
        List<Sampler.Sample> samples = Sampler.follow(job);
        JobSummary summary = job.awaitSummary();
        double farmCpu = farm.cpu().map(Duration::toNanos).orElse(0L) / 1e9 - farmCpuBefore;
        JsonNode counters = new ObjectMapper().readTree(farm.counters());
        List<String> violations = new ArrayList<>();
        int perHostSeen = counters.get("maxInFlightPerHost").asInt();
        if (perHostSeen > limit) {
            violations.add(mode.label() + ": " + perHostSeen + " requests in flight to one host, limit " + limit);
        }
        if (counters.get("duplicateFetches").asLong() > 0) {
            violations.add(mode.label() + ": " + counters.get("duplicateFetches").asLong() + " duplicate fetches");
        }
        if (counters.get("robotsViolations").asLong() > 0) {
            violations.add(mode.label() + ": " + counters.get("robotsViolations").asLong() + " robots.txt violations");
        }
        if (job.failureMessage().isPresent()) {
            violations.add(mode.label() + ": job failed: " + job.failureMessage().get());
        }
        long peakHeap = samples.stream().mapToLong(Sampler.Sample::heapBytes).max().orElse(0);
        int peakThreads = Math.max(summary.peakPlatformThreads(),
                samples.stream().mapToInt(Sampler.Sample::platformThreads).max().orElse(0));
        return new Run(mode.label(), round, isWarmup, summary, peakHeap, peakThreads, farmCpu, counters, violations,
                thin(samples));
    }

    /** At most ~300 points per run for the charts. */
    private static List<Sampler.Sample> thin(List<Sampler.Sample> samples) {
        int step = Math.max(1, samples.size() / 300);
        List<Sampler.Sample> thinned = new ArrayList<>();
        for (int i = 0; i < samples.size(); i += step) {
            thinned.add(samples.get(i));
        }
        return thinned;
    }

    static Result summarise(Scenario scenario, FarmConfig farm, int perHost, int maxInFlight, List<ModeSpec> specs,
            List<Run> all) {
        int cores = Runtime.getRuntime().availableProcessors();
        SiteGraph graph = new SiteGraph(farm, 0);
        List<ModeResult> results = new ArrayList<>();
        Double virtualRate = null;
        for (ModeSpec spec : specs) {
            List<Run> measured = all.stream().filter(r -> !r.warmup() && r.mode().equals(spec.label())).toList();
            if (measured.isEmpty()) {
                continue;
            }
            double rate = median(measured, r -> r.summary().pagesPerSecond());
            long fetched = Math.round(median(measured, r -> r.summary().pagesPerSecond() * r.summary().seconds()));
            double cpu = median(measured, r -> r.summary().cpuSeconds());
            double farmCpu = median(measured, r -> r.farmCpuSeconds());
            double cpuPerPage = fetched == 0 ? 0 : (cpu + farmCpu) / fetched;
            // robots.txt is one more level before a host's pages: levels = depth + 1 + 1.
            Ceilings ceilings = Ceilings.of(new Ceilings.Inputs(spec.mode().label(), spec.poolSize(), farm.hosts(),
                    perHost, maxInFlight, farm.latency().meanMillis() / 1000, cores, cpuPerPage, fetched,
                    graph.maxDepth() + 2));
            if (virtualRate == null && spec.mode() == ExecutionMode.VIRTUAL) {
                virtualRate = rate;
            }
            Map.Entry<String, Double> binding = ceilings.binding();
            results.add(new ModeResult(spec.label(), measured.size(), median(measured, r -> r.summary().seconds()), rate,
                    measured.stream().mapToDouble(r -> r.summary().pagesPerSecond()).min().orElse(0),
                    measured.stream().mapToDouble(r -> r.summary().pagesPerSecond()).max().orElse(0),
                    median(measured, r -> r.summary().pageLatencyMs().p50()),
                    median(measured, r -> r.summary().pageLatencyMs().p95()),
                    median(measured, r -> r.summary().pageLatencyMs().p99()),
                    median(measured, r -> r.peakThreads()), median(measured, r -> r.peakHeapBytes() / 1e6), cpu,
                    fetched == 0 ? 0 : cpu * 1000 / fetched, farmCpu, Double.NaN, ceilings.pagesPerSecond(),
                    binding.getKey(), binding.getValue(), ceilings.efficiency(rate),
                    scenario == Scenario.SEED ? SEED_PUBLISHED.getOrDefault(spec.label(), "-") : null));
        }
        Double base = virtualRate;
        List<ModeResult> withRatios = results.stream().map(m -> new ModeResult(m.mode(), m.runs(), m.seconds(),
                m.pagesPerSecond(), m.minPagesPerSecond(), m.maxPagesPerSecond(), m.p50Ms(), m.p95Ms(), m.p99Ms(),
                m.peakPlatformThreads(), m.peakHeapMb(), m.cpuSeconds(), m.cpuMsPerPage(), m.farmCpuSeconds(),
                base == null ? Double.NaN : m.pagesPerSecond() / base, m.ceilings(), m.bindingLimit(),
                m.predictedPagesPerSecond(), m.achievedOfPredicted(), m.seedPublished())).toList();
        List<String> violations = all.stream().flatMap(r -> r.violations().stream()).toList();
        return new Result(scenario.label(), scenario.description(), farm.hosts(), farm.totalPages(),
                farm.latency().meanMillis(), perHost, cores, Runtime.version() + " (" + System.getProperty("java.vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.arch"), withRatios, all, violations);
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> metric) {
        return Ceilings.median(runs.stream().map(r -> metric.applyAsDouble(r)).toList());
    }
}
