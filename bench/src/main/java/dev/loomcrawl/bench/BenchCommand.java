package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.util.concurrent.Callable;
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
                    + " what they receive (default: ${DEFAULT-VALUE}). With --cold, several in one call, comma-separated"
                    + " (wide,deep,rough,huge): each with its own farm, one after another, its report in DIR/NAME.")
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
            description = "Requests in flight across all hosts at most; fewer while the CPU or the store is the limit"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--fixed-in-flight", description = "Hold --max-in-flight as a fixed limit instead of adapting it.")
    boolean fixedInFlight;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-out",
            description = "Where report.html, results.json and the H2 database go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--json", description = "Print all figures as one JSON object on stdout (the table goes to stderr);"
            + " with --cold and several scenarios, one line of JSON each.")
    boolean json;

    @Option(names = "--minutes", paramLabel = "N", defaultValue = "10", description = "With --scenario=changing: how"
            + " long the continuous job runs (default: ${DEFAULT-VALUE}).")
    double minutes;

    @Option(names = "--cold", description = "Time whole one-shot 'crawl' processes instead (JVM start and JIT included):"
            + " wall, CPU, peak RSS under GNU time, against the latency ideal; virtual mode.")
    boolean cold;

    @Option(names = "--java-options", paramLabel = "OPTIONS",
            description = "With --cold: JVM options of the crawl processes, one set per flag, compared in turns"
                    + " (A B, B A, ...; default: one set, as the launcher runs a crawl: its options and its start-up cache, if"
                    + " a crawl has recorded one for this build).")
    List<String> javaOptions;

    @Option(names = "--crawl-options", paramLabel = "FLAGS",
            description = "With --cold: more 'crawl' flags for the crawl processes, one set per flag (\"\" for none),"
                    + " compared A B A B with every --java-options set: --crawl-options= --crawl-options=--content=markdown"
                    + " times what main content costs.")
    List<String> crawlOptions;

    @Option(names = "--floor", description = "With --cold: also time, in each round, a process that makes the farm's"
            + " requests and nothing else (robots.txt, the seed, then the pages at most per-host at a time; no parsing,"
            + " no storing) under the first option set: the same requests made the plainest way, to measure the crawl against.")
    boolean floor;

    @Option(names = "--rival", paramLabel = "COMMAND",
            description = "With --cold: another crawler to time in each round beside ours, against the same farm, as a"
                    + " command (split at spaces, no shell; {seeds}, {max-depth}, {per-host} and {port} are filled in);"
                    + " its pages are those the farm served it. Repeatable. See rivals/colly and rivals/spider.")
    List<String> rivalCommands;

    @Option(names = "--max-depth", paramLabel = "N", description = "With --cold: crawl depth (default: the farm's depth;"
            + " one more for 'rough', whose redirects and traps add a level).")
    Integer maxDepth;

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
            return politeness();
        }
        if (cold) {
            return cold(List.of(scenario.split(",", -1)));
        }
        if (scenario.contains(",")) {
            throw new IllegalArgumentException("several scenarios (--scenario=" + scenario + ") go with --cold");
        }
        Scenario chosen = farmScenario(scenario);
        List<ModeSpec> specs = modes.stream().map(ModeSpec::parse).toList();
        int limit = perHost != null ? perHost : chosen.perHost();
        if (limit < 1) {
            throw new IllegalArgumentException("--per-host must be at least 1, was " + limit);
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter table = json ? err : spec.commandLine().getOut();
        Files.createDirectories(out);
        FarmConfig farmConfig = farmOptions.apply(chosen.config());
        List<String> farmArgs = farmArgs(chosen);
        if (floor) {
            throw new IllegalArgumentException("--floor goes with --cold");
        }
        if (rivalCommands != null && !rivalCommands.isEmpty()) {
            throw new IllegalArgumentException("--rival goes with --cold");
        }
        if (chosen == Scenario.CHANGING) {
            if (minutes <= 0 || minutes > 24 * 60) {
                throw new IllegalArgumentException("--scenario=changing runs one continuous job: --minutes between 0"
                        + " and 1440");
            }
            return changing(chosen, farmConfig, farmArgs, limit, err, table);
        }
        return modes(chosen, farmConfig, farmArgs, specs, limit, err, table);
    }

    /**
     * {@code --cold} of each scenario named, one after another, each with its own farm; the report in {@code --out},
     * or with several scenarios in a folder of each's name there. Each is checked before the first starts, so a
     * mistake in the last costs no crawl.
     */
    private int cold(List<String> names) throws Exception {
        List<Scenario> chosen = names.stream().map(BenchCommand::farmScenario).distinct().toList();
        List<Rival> rivals = rivalCommands == null ? List.of()
                : rivalCommands.stream().map(Rival::parse).distinct().toList(); // one row per command
        List<ColdCall> calls = new ArrayList<>();
        for (Scenario each : chosen) {
            if (each == Scenario.CHANGING) {
                throw new IllegalArgumentException("--scenario=changing runs one continuous job: no --cold or --rival");
            }
            int limit = perHost != null ? perHost : each.perHost();
            if (limit < 1) {
                throw new IllegalArgumentException("--per-host must be at least 1, was " + limit);
            }
            FarmConfig farm = farmOptions.apply(each.config());
            calls.add(new ColdCall(each, farm, depth(each, farm), limit,
                    chosen.size() == 1 ? out : out.resolve(each.label())));
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter table = json ? err : spec.commandLine().getOut();
        int exit = 0;
        for (ColdCall call : calls) {
            exit = Math.max(exit, cold(call, rivals, err, table));
        }
        return exit;
    }

    /** One scenario's cold crawls, checked: its farm, crawl depth, per-host limit, and where its report goes. */
    private record ColdCall(Scenario scenario, FarmConfig farm, int depth, int limit, Path dir) {}

    /** A farm's scenario by name; refused naming politeness too, which bench runs without a farm. */
    private static Scenario farmScenario(String name) {
        try {
            return Scenario.parse(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--scenario must be one of " + Scenario.names()
                    + ", or politeness; was '" + name + "'");
        }
    }

    /** Servers of its own that count what they receive (no farm process): see {@link PolitenessBench}. */
    private int politeness() throws Exception {
        PolitenessBench.Result result = PolitenessBench.run(300, 511, spec.commandLine().getErr());
        PolitenessBench.print(result, json ? spec.commandLine().getErr() : spec.commandLine().getOut());
        Files.createDirectories(out);
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("politeness.json").toFile(), result);
        if (json) {
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
        }
        return result.mostInFlightAtAnAddress() > result.limit() || !result.auditEqualsServers() ? 1 : 0;
    }

    /** One continuous job on a farm whose pages change: see {@link FreshnessBench}. */
    private int changing(Scenario chosen, FarmConfig farmConfig, List<String> farmArgs, int limit, PrintWriter err,
            PrintWriter table) throws Exception {
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

    /** The farm process's arguments for {@code chosen}, with the overrides given. */
    private List<String> farmArgs(Scenario chosen) {
        List<String> args = new ArrayList<>(List.of("--scenario=" + chosen.label()));
        args.addAll(farmOptions.asArgs());
        return args;
    }

    /** The crawl depth of {@code chosen}'s cold crawls; refuses a {@code --floor} its farm cannot have. */
    private int depth(Scenario chosen, FarmConfig farmConfig) {
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
        return depth;
    }

    /** Whole crawl processes as a user runs them, beside rivals: see {@link ColdBench}. */
    private int cold(ColdCall call, List<Rival> rivals, PrintWriter err, PrintWriter table) throws Exception {
        Scenario chosen = call.scenario();
        int limit = call.limit();
        Path dir = call.dir();
        Files.createDirectories(dir);
        List<Variant> jvms = javaOptions == null || javaOptions.isEmpty()
                ? List.of(Variant.launcherDefaults(System.getenv()))
                : javaOptions.stream().map(Variant::parse).toList();
        List<Variant> variants = crawlOptions == null || crawlOptions.isEmpty() ? jvms
                : jvms.stream().flatMap(v -> crawlOptions.stream().map(v::withCrawlFlags)).toList();
        err.printf("bench --cold: %s farm in its own process (%s); %d run(s) of %d option set(s)%s%n", chosen.label(),
                chosen.description(), runs, variants.size(), rivals.isEmpty() ? "" : " and " + rivals.size() + " rival(s)");
        ColdBench.Result result = ColdBench.run(mainClass, chosen, call.farm(), farmArgs(chosen), call.depth(), limit,
                variants, floor, rivals, runs, dir, err);
        BenchReport.printCold(result, table);
        Path report = BenchReport.writeColdHtml(result, dir.resolve("cold.html"));
        err.printf("bench --cold: report %s, figures %s%n", report.toAbsolutePath(),
                dir.resolve("cold.json").toAbsolutePath());
        if (json) {
            spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(result));
        }
        // Our rows only: a rival's duplicates and violations are what it is measured on, not a failure of ours.
        // A request to a resting host may have been on its way when the farm sent the 429 (see FarmCounters):
        // asking the 429's own URL again too soon is the failure.
        boolean bad = result.rows().stream().filter(r -> !r.rival()).anyMatch(r -> r.maxInFlightPerHost() > limit
                || r.duplicateFetches() > 0 || r.earlyRetries() > 0);
        boolean failed = result.runs().stream().anyMatch(run -> run.exitCode() != 0
                && result.rows().stream().noneMatch(row -> row.rival() && row.variant().equals(run.variant())));
        return bad || failed ? 1 : 0;
    }

    /** The modes side by side in this process: see {@link ModeBench}. */
    private int modes(Scenario chosen, FarmConfig farmConfig, List<String> farmArgs, List<ModeSpec> specs, int limit,
            PrintWriter err, PrintWriter table) throws Exception {
        err.printf("bench: starting the %s farm in its own process (%s)%n", chosen.label(), chosen.description());
        ModeBench.Result result = ModeBench.run(mainClass, chosen, farmConfig, farmArgs, specs,
                new ModeBench.Limits(limit, maxInFlight, !fixedInFlight), warmup, runs, out, err);
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
}
