package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench --cold}: whole one-shot {@code crawl} processes, as a user runs them, JVM start and JIT
 * included. Each run is a fresh JVM under GNU {@code time} (wall, user + system CPU, peak RSS) against a
 * farm in a process of its own (its CPU is not counted); JVM option sets take turns in each round, in the
 * {@link RoundOrder} that lets the machine's drift hit all of them alike. Other crawlers ({@link Rival}s) take
 * their turn in each round too, timed the same way against the same farm.
 */
final class ColdBench {
    /** One process of a round: an option set's crawl, the floor's fetches or a rival's run. */
    private interface Turn {
        Run take(int round) throws Exception;
    }

    /**
     * One crawl process.
     *
     * @param pages what the crawl says it stored (a rival: {@code pagesServed})
     * @param pagesServed the farm's count of its site graph's pages it served this process, each once: the same
     *     measure for every crawler, and on a farm with faults the pages a crawl got in the end
     */
    record Run(String variant, int round, double wallSeconds, double cpuSeconds, double peakRssMb, long pages,
            long pagesServed, long failed, long skipped, JsonNode failures, long retryAfterViolations,
            long earlyRetries, long duplicateFetches, int maxInFlightPerHost, int exitCode, Throughput throughput) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Medians per variant.
     *
     * @param pages what the crawls said they stored (on a farm with faults, redirects and trap pages too)
     * @param pagesServed the farm's count of its pages served, each once (see {@link Run#pagesServed})
     * @param lostPages the most of the farm's pages one run left unserved
     * @param rival the row of a {@link Rival}, another crawler: its duplicates and violations are its own, not ours
     */
    record Row(String variant, int runs, double wallSeconds, double minWall, double maxWall, double cpuSeconds,
            double cpuMsPerPage, double peakRssMb, double pages, double pagesServed, double idealSeconds, double ofIdeal,
            long retryAfterViolations, long earlyRetries, long duplicateFetches, int maxInFlightPerHost, long lostPages,
            List<Double> pagesPerSecondByTenth, double lateOverEarly, boolean rival) {}

    record Result(String scenario, String farm, long farmPages, int maxDepth, int perHost, double idealSeconds,
            String idealRule, List<Row> rows, List<Run> runs) {}

    private ColdBench() {}

    /** The label of {@link FetchFloor}'s row. */
    static final String FLOOR = "fetches alone (the floor)";
    /** The last run's stderr of each kind of process, in the bench's folder. */
    private static final String CRAWL_STDERR = "cold-stderr.txt";
    private static final String FLOOR_STDERR = "floor-stderr.txt";
    private static final String RIVAL_STDERR = "rival-stderr.txt";

    /**
     * @param floor also time, in each round, a {@link FetchFloor} process under the first option set: the farm's
     *     fetches with nothing else, made the plainest way: what the crawl's row is measured against
     * @param rivals other crawlers to time in each round, beside ours
     */
    static Result run(String mainClass, Scenario scenario, FarmConfig farm, List<String> farmArgs, int maxDepth,
            int perHost, List<Variant> variants, boolean floor, List<Rival> rivals, int runs, Path out, PrintWriter err)
            throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/time"))) {
            throw new IllegalArgumentException("bench --cold needs GNU time at /usr/bin/time (apt-get install time)");
        }
        Files.createDirectories(out);
        SiteGraph graph = new SiteGraph(farm, 0);
        double ideal = idealSeconds(farm, graph, maxDepth, perHost);
        List<Run> all = new ArrayList<>();
        Path seeds = out.resolve("seeds.txt");
        try (FarmProcess farmProcess = FarmProcess.start(mainClass, farmArgs, seeds)) {
            warmUp(farmProcess.seeds(), farm, perHost, err);
            List<Turn> turns = new ArrayList<>();
            for (Variant variant : variants) {
                turns.add(round -> {
                    Run run = progress(crawlOnce(mainClass, variant, round, seeds, maxDepth, perHost, farm, farmProcess,
                            out), runs, out.resolve(CRAWL_STDERR), err);
                    if (round == 0) {
                        sayIfCacheRefused(variant, out, err);
                    }
                    return run;
                });
            }
            if (floor) {
                turns.add(round -> progress(floorOnce(variants.getFirst(), round, seeds, farm, perHost, farmProcess, out),
                        runs, out.resolve(FLOOR_STDERR), err));
            }
            for (Rival rival : rivals) {
                turns.add(round -> progress(rivalOnce(rival, round, seeds, maxDepth, perHost, farmProcess, out), runs,
                        out.resolve(RIVAL_STDERR), err));
            }
            for (int round = 0; round < runs; round++) {
                for (Turn turn : RoundOrder.of(turns, round)) {
                    farmProcess.reset();
                    all.add(turn.take(round));
                    err.flush();
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        long expected = graph.config().totalPages();
        List<String> rivalLabels = rivals.stream().map(Rival::label).toList();
        List<String> labels = labels(variants, floor, rivalLabels);
        for (String label : labels) {
            List<Run> mine = all.stream().filter(r -> r.variant().equals(label)).toList();
            rows.add(row(label, mine, ideal, expected, rivalLabels.contains(label)));
        }
        Result result = new Result(scenario.label(), shape(farm), expected, maxDepth, perHost, ideal,
                "latency x max(levels, 2 + ceil((pages per host - 1) / per-host limit)); levels = robots.txt + depth + 1",
                rows, all);
        Files.writeString(out.resolve("cold.json"), new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(result));
        return result;
    }

    /** The rows' labels, in the table's order: our option sets, the floor, the rivals. */
    private static List<String> labels(List<Variant> variants, boolean floor, List<String> rivalLabels) {
        List<String> labels = new ArrayList<>(variants.stream().map(Variant::label).toList());
        if (floor) {
            labels.add(FLOOR);
        }
        labels.addAll(rivalLabels);
        return labels;
    }

    private static String shape(FarmConfig farm) {
        return String.format(Locale.ROOT, "%,d hosts x %,d pages, %.0f ms mean latency%s", farm.hosts(),
                farm.pagesPerHost(), farm.latency().meanMillis(), farm.faults().equals(dev.loomcrawl.mocksites.Faults.NONE)
                        ? "" : ", faults on");
    }

    /** One label's row: medians of its runs (CPU per page from the medians), worst cases summed or maxed. */
    private static Row row(String label, List<Run> mine, double ideal, long expected, boolean rival) {
        double wall = median(mine, Run::wallSeconds);
        double cpu = median(mine, Run::cpuSeconds);
        double pages = median(mine, r -> r.pages());
        return new Row(label, mine.size(), wall, mine.stream().mapToDouble(Run::wallSeconds).min().orElse(0),
                mine.stream().mapToDouble(Run::wallSeconds).max().orElse(0), cpu,
                pages == 0 ? 0 : cpu * 1000 / pages, median(mine, Run::peakRssMb), pages,
                median(mine, r -> r.pagesServed()), ideal, wall / ideal,
                mine.stream().mapToLong(Run::retryAfterViolations).sum(),
                mine.stream().mapToLong(Run::earlyRetries).sum(),
                mine.stream().mapToLong(Run::duplicateFetches).sum(),
                mine.stream().mapToInt(Run::maxInFlightPerHost).max().orElse(0),
                mine.stream().mapToLong(r -> Math.max(0, expected - r.pagesServed())).max().orElse(0),
                medianByTenth(mine), median(mine, r -> r.throughput().lateOverEarly()), rival);
    }

    /** Says so when the crawl's JVM refused its start-up cache: its time is then not the launcher's. */
    private static void sayIfCacheRefused(Variant variant, Path out, PrintWriter err) throws IOException {
        Variant.startUpCacheRefused(out.resolve(CRAWL_STDERR)).ifPresent(line -> err.printf(
                "bench --cold: %s: its start-up cache was not used; the crawl's JVM said: %s%n", variant.label(), line));
    }

    /** About how many requests {@link #warmUp} sends. */
    static final int WARM_UP_REQUESTS = 10_000;

    /**
     * Warms the farm's JIT before the first measured run: the farm's requests (as {@link FetchFloor} makes them,
     * from this process, unmeasured) to as many of its hosts as it takes to reach {@value #WARM_UP_REQUESTS}. A farm
     * that still interprets answers late: the first crawl of a fresh farm took 7.8 s on {@code deep} where the
     * next ones took 5.5-6.6, and a single run, or the first of an A B pair, was measured against it. The
     * farm's counters are reset before each run, so nothing of this pass is counted.
     */
    private static void warmUp(List<String> seeds, FarmConfig farm, int perHost, PrintWriter err)
            throws InterruptedException {
        int hosts = (int) Math.min(seeds.size(), Math.ceilDiv(WARM_UP_REQUESTS, farm.pagesPerHost() + 1));
        err.printf(Locale.ROOT, "bench --cold: warming the farm up with %,d unmeasured requests to %,d of its hosts%n",
                (long) hosts * (farm.pagesPerHost() + 1), hosts);
        err.flush();
        FetchFloor.fetchAll(seeds.subList(0, hosts), farm.pagesPerHost(), perHost);
    }

    /**
     * The least time any crawl can take: every level of links is a latency apart (robots.txt first), and a
     * host's pages go at most {@code perHost} at a time. Per host that is robots.txt, then the seed alone
     * (every other page is found through it, or through a sitemap: a round either way), then the other
     * pages {@code perHost} at a time: 15 rounds, 4.5 s, for 100 pages, 8 at a time and 300 ms, the figure
     * the speed issue measured against.
     */
    static double idealSeconds(FarmConfig farm, SiteGraph graph, int maxDepth, int perHost) {
        int levels = 1 + Math.min(maxDepth, graph.maxDepth()) + 1;
        int perHostRounds = 2 + (farm.pagesPerHost() - 1 + perHost - 1) / perHost;
        return farm.latency().meanMillis() / 1000 * Math.max(levels, perHostRounds);
    }

    private static Run crawlOnce(String mainClass, Variant variant, int round, Path seeds, int maxDepth, int perHost,
            FarmConfig farm, FarmProcess farmProcess, Path out) throws IOException, InterruptedException {
        Path db = out.resolve("cold-db");
        for (String suffix : List.of(".mv.db", ".trace.db")) {
            Files.deleteIfExists(Path.of(db + suffix));
        }
        List<String> args = new ArrayList<>(List.of(mainClass, "crawl", "--seeds-file=" + seeds, "--max-depth=" + maxDepth,
                "--per-host=" + perHost, "--max-pages=" + Math.min(50_000_000, farm.totalPages() * 4), "--json", "--quiet",
                "--db=jdbc:h2:" + db.toAbsolutePath(), "--proxy=")); // the farm is ours: never through LOOMCRAWL_PROXY
        args.addAll(variant.crawlFlags());
        TimedProcess t = TimedProcess.run(TimedProcess.java(variant, args), "a cold crawl", out.resolve(CRAWL_STDERR), out);
        JsonNode summary = json(t.stdout());
        return run(variant.label(), round, t, summary.path("pages").asLong(), summary.path("failed").asLong(),
                summary.path("skipped").asLong(), summary.path("failures"), farmProcess, Throughput.read(db));
    }

    /** One {@link FetchFloor} process, timed as a crawl is, under {@code variant}'s JVM options. */
    private static Run floorOnce(Variant variant, int round, Path seeds, FarmConfig farm, int perHost,
            FarmProcess farmProcess, Path out) throws IOException, InterruptedException {
        TimedProcess t = TimedProcess.run(TimedProcess.labJava(variant, FetchFloor.class, List.of(seeds.toString(),
                String.valueOf(farm.pagesPerHost()), String.valueOf(perHost))), "the floor's fetches",
                out.resolve(FLOOR_STDERR), out);
        JsonNode tally = json(t.stdout());
        return run(FLOOR, round, t, tally.path("pages").asLong(), tally.path("failed").asLong(), 0,
                JSON.createObjectNode(), farmProcess, Throughput.NONE);
    }

    /** One run of another crawler, timed as a crawl is; its pages are those the farm served it. */
    private static Run rivalOnce(Rival rival, int round, Path seeds, int maxDepth, int perHost, FarmProcess farmProcess,
            Path out) throws IOException, InterruptedException {
        TimedProcess t = TimedProcess.run(rival.argv(seeds.toAbsolutePath(), maxDepth, perHost, farmProcess.port()), rival.label(),
                out.resolve(RIVAL_STDERR), out);
        return run(rival.label(), round, t, FARM_PAGES, 0, 0, JSON.createObjectNode(), farmProcess, Throughput.NONE);
    }

    /** {@link #run}'s {@code pages} for a process whose pages are those the farm served it (a rival's). */
    private static final long FARM_PAGES = -1;

    /**
     * A timed process's run: its figures, what it says it did, and what the farm saw of it.
     *
     * @param pages its own count, or {@link #FARM_PAGES}
     */
    private static Run run(String label, int round, TimedProcess t, long pages, long failed, long skipped, JsonNode failures,
            FarmProcess farmProcess, Throughput throughput) throws IOException, InterruptedException {
        JsonNode counters = JSON.readTree(farmProcess.counters());
        long served = counters.get("pagesServed").asLong();
        return new Run(label, round, t.wallSeconds(), t.cpuSeconds(), t.peakRssMb(), pages == FARM_PAGES ? served : pages,
                served, failed, skipped, failures, counters.get("retryAfterViolations").asLong(),
                counters.get("earlyRetries").asLong(), counters.get("duplicateFetches").asLong(),
                counters.get("maxInFlightPerHost").asInt(), t.exitCode(), throughput);
    }

    /**
     * One line on stderr as each run ends, and one more naming its process's stderr (kept until the next run of its
     * kind) when it exited with an error; gives the run back.
     */
    private static Run progress(Run run, int runs, Path stderr, PrintWriter err) {
        err.printf(Locale.ROOT, "bench --cold: %s run %d/%d: %.2f s wall, %.2f CPU-s, %.0f MB peak RSS, %,d pages%n",
                run.variant(), run.round() + 1, runs, run.wallSeconds(), run.cpuSeconds(), run.peakRssMb(), run.pages());
        if (run.exitCode() != 0) {
            err.printf("bench --cold: %s exited with %d; its stderr: %s%n", run.variant(), run.exitCode(),
                    stderr.toAbsolutePath());
        }
        return run;
    }

    /** Our processes' stdout: one JSON object (a crawl's {@code --json} summary, the floor's tally), or nothing. */
    private static JsonNode json(String stdout) throws IOException {
        return stdout.isBlank() ? JSON.createObjectNode() : JSON.readTree(stdout);
    }

    private static List<Double> medianByTenth(List<Run> runs) {
        List<Run> measured = runs.stream().filter(r -> r.throughput().pagesPerSecondByTenth().size() == Throughput.TENTHS).toList();
        if (measured.isEmpty()) {
            return List.of();
        }
        List<Double> medians = new ArrayList<>();
        for (int i = 0; i < Throughput.TENTHS; i++) {
            int tenth = i;
            medians.add(median(measured, r -> r.throughput().pagesPerSecondByTenth().get(tenth)));
        }
        return medians;
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> metric) {
        return Ceilings.median(runs.stream().map(metric::applyAsDouble).toList());
    }
}
