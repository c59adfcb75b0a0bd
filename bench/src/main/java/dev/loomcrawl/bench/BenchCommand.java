package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.CrawlSummary;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.CrawlerOptions;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.Faults;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code loomcrawl bench}: the same crawl of the same farm in each mode, interleaved, with a warm-up,
 * medians, the ceilings each mode should reach, and the farm's own count of what happened.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compare virtual threads with platform-thread pools on the same crawl of a mock-site farm.")
public final class BenchCommand implements Callable<Integer> {

    /** The seed benchmark's published figures: 10,000 tasks of 300 ms. */
    static final Map<String, String> SEED_PUBLISHED = Map.of(
            "virtual", "0.33-0.44 s (10,000 tasks of 300 ms)",
            "pool:200", "15.5 s (10,000 tasks of 300 ms)");

    @Spec
    CommandSpec spec;

    private final String mainClass;

    /** @param mainClass the application's main class: the farm runs in a process of its own */
    public BenchCommand(String mainClass) {
        this.mainClass = mainClass;
    }

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "seed",
            description = "Farm scenario: demo, seed, slow, polite, faults, wide, deep, rough, huge, large, changing;"
                    + " or politeness: adaptive politeness, limits by address and a pause, against servers that count"
                    + " what they receive (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--modes", paramLabel = "LIST", split = ",", defaultValue = "virtual,pool:200",
            description = "Modes to compare, e.g. virtual,pool:200,pool:1000 (default: ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--preset", paramLabel = "NAME",
            description = "seed-table: the seed experiment as a crawl (seed scenario; virtual vs pool 200/500/800/1000).")
    String preset;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3", description = "Measured runs per mode (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
            description = "Uncounted warm-up rounds first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--per-host", paramLabel = "N", description = "Per-host limit (default: the scenario's).")
    Integer perHost;

    @picocli.CommandLine.Mixin
    FarmOptions farmOptions;

    @Option(names = "--max-in-flight", paramLabel = "N", defaultValue = "10000",
            description = "Requests in flight across all hosts at most; fewer while the CPU is the limit"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--fixed-in-flight", description = "Hold --max-in-flight as a fixed limit instead of adapting it.")
    boolean fixedInFlight;



    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-out",
            description = "Where report.html, results.json and the H2 database go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--json", description = "Print all figures as one JSON object on stdout (the table goes to stderr).")
    boolean json;

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "10", description = "With --scenario=changing: how"
            + " long the continuous job runs (default: ${DEFAULT-VALUE}).")
    double minutes;

    @Option(names = "--cold", description = "Time whole one-shot 'crawl' processes instead (JVM start and JIT included):"
            + " wall, CPU, peak RSS under GNU time, against the latency ideal; virtual mode.")
    boolean cold;

    @Option(names = "--java-options", paramLabel = "OPTIONS",
            description = "With --cold: JVM options of the crawl processes, one set per flag, compared A B A B"
                    + " (default: one set, as the launcher runs a crawl: its options and its start-up cache, if"
                    + " a crawl has recorded one for this build).")
    List<String> javaOptions;

    @Option(names = "--floor", description = "With --cold: also time, in each round, a process that makes the farm's"
            + " requests and nothing else (robots.txt, the seed, then the pages at most per-host at a time; no parsing,"
            + " no storing) under the first option set: the same requests made the plainest way, to measure the crawl against.")
    boolean floor;

    @Option(names = "--rival", paramLabel = "COMMAND",
            description = "With --cold: another crawler to time in each round after ours, against the same farm, as a"
                    + " command (split at spaces, no shell; {seeds}, {max-depth}, {per-host} and {port} are filled in);"
                    + " its pages are those the farm served it. Repeatable. See rivals/colly.")
    List<String> rivalCommands;

    @Option(names = "--max-depth", paramLabel = "N", description = "With --cold: crawl depth (default: the farm's depth;"
            + " one more for 'rough', whose redirects and traps add a level).")
    Integer maxDepth;

    /** One measured (or warm-up) crawl. */
    record Run(String mode, int round, boolean warmup, CrawlSummary summary, long peakHeapBytes, int peakThreads,
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

    @Override
    public Integer call() throws Exception {
        if ("seed-table".equals(preset)) {
            scenario = "seed";
            modes = List.of("virtual", "pool:200", "pool:500", "pool:800", "pool:1000");
        } else if (preset != null) {
            throw new IllegalArgumentException("--preset must be seed-table, was '" + preset + "'");
        }
        if (runs < 1 || runs > 50 || warmup < 0 || warmup > 10) {
            throw new IllegalArgumentException("--runs must be 1 to 50 and --warmup 0 to 10");
        }
        if ("politeness".equals(scenario)) {
            // Servers of its own that count what they receive (no farm process): see PolitenessBench.
            PolitenessBench.Result result = PolitenessBench.run(300, 511, spec.commandLine().getErr());
            PolitenessBench.print(result, json ? spec.commandLine().getErr() : spec.commandLine().getOut());
            Files.createDirectories(out);
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("politeness.json").toFile(), result);
            if (json) {
                spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
            }
            return result.mostInFlightAtAnAddress() > result.limit() || !result.auditEqualsServers() ? 1 : 0;
        }
        Scenario chosen = Scenario.parse(scenario);
        List<ModeSpec> specs = modes.stream().map(ModeSpec::parse).toList();
        int limit = perHost != null ? perHost : chosen.perHost();
        if (limit < 1) {
            throw new IllegalArgumentException("--per-host must be at least 1, was " + limit);
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter table = json ? err : spec.commandLine().getOut();
        Files.createDirectories(out);
        FarmConfig farmConfig = farmOptions.apply(chosen.config());
        List<String> farmArgs = new ArrayList<>(List.of("--scenario=" + chosen.label()));
        farmArgs.addAll(farmOptions.asArgs());
        if (floor && !cold) {
            throw new IllegalArgumentException("--floor goes with --cold");
        }
        List<Rival> rivals = rivalCommands == null ? List.of()
                : rivalCommands.stream().map(Rival::parse).distinct().toList(); // one row per command
        if (!rivals.isEmpty() && !cold) {
            throw new IllegalArgumentException("--rival goes with --cold");
        }
        if (chosen == Scenario.CHANGING) {
            if (cold || !rivals.isEmpty() || minutes <= 0 || minutes > 24 * 60) {
                throw new IllegalArgumentException("--scenario=changing runs one continuous job: no --cold or --rival,"
                        + " and --minutes between 0 and 1440");
            }
            err.printf("bench: %s farm in its own process (%s)%n", chosen.label(), chosen.description());
            FreshnessBench.Result result = FreshnessBench.run(mainClass, farmConfig, farmArgs, limit,
                    Duration.ofMillis(Math.round(minutes * 60_000)), Duration.ofSeconds(30), Duration.ofMinutes(10), out, err);
            FreshnessBench.print(result, limit, table);
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("fresh.json").toFile(), result);
            if (json) {
                spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
            }
            return result.maxInFlightPerHost() > limit || result.retryAfterViolations() > 0 ? 1 : 0;
        }
        if (cold) {
            int farmDepth = new SiteGraph(farmConfig, 0).maxDepth();
            int depth = maxDepth != null ? maxDepth : farmDepth + (chosen == Scenario.ROUGH ? 1 : 0);
            if (floor && !farmConfig.faults().equals(Faults.NONE)) {
                throw new IllegalArgumentException("--floor makes each request once and follows no redirect: it needs"
                        + " a farm without faults (" + chosen.label() + " has them)");
            }
            if (floor && depth < farmDepth) {
                throw new IllegalArgumentException("--floor fetches every page of the farm, which a crawl reaches with"
                        + " --max-depth=" + farmDepth + " or more, was " + depth);
            }
            List<ColdBench.Variant> variants = javaOptions == null || javaOptions.isEmpty()
                    ? List.of(ColdBench.launcherDefaults(System.getenv()))
                    : javaOptions.stream().map(ColdBench.Variant::parse).toList();
            err.printf("bench --cold: %s farm in its own process (%s); %d run(s) of %d option set(s)%s%n", chosen.label(),
                    chosen.description(), runs, variants.size(), rivals.isEmpty() ? "" : " and " + rivals.size() + " rival(s)");
            ColdBench.Result result = ColdBench.run(mainClass, chosen, farmConfig, farmArgs, depth, limit, variants, floor, rivals,
                    runs, out, err);
            BenchReport.printCold(result, table);
            Path report = BenchReport.writeColdHtml(result, out.resolve("cold.html"));
            err.printf("bench --cold: report %s, figures %s%n", report.toAbsolutePath(),
                    out.resolve("cold.json").toAbsolutePath());
            if (json) {
                spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
            }
            // Our rows only: a rival's duplicates and violations are what it is measured on, not a failure of ours.
            boolean bad = result.rows().stream().filter(r -> !r.rival()).anyMatch(r -> r.maxInFlightPerHost() > limit
                    || r.duplicateFetches() > 0 || r.retryAfterViolations() > 0);
            return bad ? 1 : 0;
        }
        List<Run> all = new ArrayList<>();

        err.printf("bench: starting the %s farm in its own process (%s)%n", chosen.label(), chosen.description());
        try (FarmProcess farm = FarmProcess.start(mainClass, farmArgs, out.resolve("seeds.txt"));
             PageStore store = PageStore.open("jdbc:h2:" + out.toAbsolutePath().resolve("bench"));
             Crawler crawler = new Crawler(store, new CrawlerOptions(limit, Math.max(maxInFlight, 1), !fixedInFlight))) {
            SiteGraph graph = new SiteGraph(farmConfig, farm.port());
            int rounds = warmup + runs;
            for (int round = 0; round < rounds; round++) {
                for (ModeSpec mode : specs) { // A B A B ...: drift hits every mode alike
                    boolean isWarmup = round < warmup;
                    CrawlConfig config = CrawlConfig.builder().seeds(farm.seeds()).maxDepth(graph.maxDepth())
                            .maxPages((int) Math.min(50_000_000, farmConfig.totalPages() * 4))
                            .perHostConcurrency(limit).maxInFlight(maxInFlight)
                            .mode(mode.mode()).poolSize(mode.poolSize()).build();
                    err.printf("bench: %s %s ...%n", isWarmup ? "warm-up" : "run " + (round - warmup + 1) + "/" + runs,
                            mode.label());
                    err.flush();
                    Run run = runOnce(crawler, farm, config, mode, round, isWarmup, limit);
                    err.printf("bench:   %.2f s, %,.1f pages/s, peak %d platform threads%s%n", run.summary().seconds(),
                            run.summary().pagesPerSecond(), run.peakThreads(),
                            run.violations().isEmpty() ? "" : "  VIOLATIONS: " + run.violations());
                    all.add(run);
                }
            }
        }
        Result result = summarise(chosen, farmConfig, limit, maxInFlight, specs, all);
        BenchReport.printTable(result, table);
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Files.writeString(out.resolve("results.json"), mapper.writeValueAsString(result));
        Path report = BenchReport.writeHtml(result, out.resolve("report.html"));
        err.printf("bench: report %s, figures %s%n", report.toAbsolutePath(), out.resolve("results.json").toAbsolutePath());
        if (json) {
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
        }
        if (!result.violations().isEmpty()) {
            err.println("bench: FAILED: the farm saw " + String.join("; ", result.violations()));
            return 1;
        }
        return 0;
    }

    private Run runOnce(Crawler crawler, FarmProcess farm, CrawlConfig config, ModeSpec mode, int round,
            boolean isWarmup, int limit) throws Exception {
        farm.reset();
        System.gc(); // each run starts from the same heap, not the last run's garbage
        double farmCpuBefore = farm.cpu().map(Duration::toNanos).orElse(0L) / 1e9;
        CrawlJob job = crawler.start(config);
        List<Sampler.Sample> samples = Sampler.follow(job);
        CrawlSummary summary = job.awaitSummary();
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
            if (virtualRate == null && spec.mode() == dev.loomcrawl.crawler.ExecutionMode.VIRTUAL) {
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
