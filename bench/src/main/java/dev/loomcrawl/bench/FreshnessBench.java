package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench --scenario=changing}: a continuous job on a {@code serve} process against a farm whose pages change
 * on their own schedule (in a process of its own), for a set time; then what the job reported is held against
 * the farm's log of what it changed. Figures: recall and precision of {@code changed}, {@code minor} against
 * {@code major} right, the share of unchanged pages' revisits answered 304, how often pages that never change are
 * visited against pages that change every minute, CPU per revisit against a first fetch, memory over the run,
 * and the farm's politeness counters.
 */
final class FreshnessBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The line {@code serve} prints once it listens (see the cli module's {@code ServeCommand.READY}). */
    private static final String SERVE_READY = "loomcrawl serving on ";
    private static final Pattern PORT = Pattern.compile(":(\\d+)");
    private static final Duration SAMPLE = Duration.ofSeconds(5);
    private static final Duration IDLE = Duration.ofSeconds(5);

    /** One look at the processes while the job runs. */
    record Sample(double seconds, double serveCpuSeconds, double rssMb, long farmRequests, long pagesServed) {}

    /**
     * Everything measured.
     *
     * @param recall changes the farm made before a page's last visit that the first visit after them reported
     * @param precision {@code changed} events that follow a change the farm made since the visit before
     * @param severityRight of the {@code changed} events that were right, those whose minor or major was too
     * @param notModifiedShare revisits of pages that had not changed that the server answered 304
     * @param staticToHotVisits visits of a page that never changes over visits of one that changes every period
     */
    record Result(String farm, double minutes, String revisit, long changesMade, long changesAssessed, double recall,
            long changedEvents, double precision, double severityRight, long unchangedRevisits, double notModifiedShare,
            double staticVisitsPerPage, double hotVisitsPerPage, double staticToHotVisits, double firstPassSeconds,
            double idleCpuPerSecond, double cpuMsPerFirstFetch, double cpuMsPerRevisit, double revisitToFirstCpu,
            double cpuMsPerFirstFetchBeyondIdle, double cpuMsPerRevisitBeyondIdle, double revisitToFirstCpuBeyondIdle,
            double rssMbAfterFirstPass,
            double rssMbAtEnd, int maxInFlightPerHost, long retryAfterViolations, Map<String, Long> eventsByKind,
            List<Sample> samples) {}

    private FreshnessBench() {}

    static Result run(String mainClass, FarmConfig farm, List<String> farmArgs, int perHost, Duration length,
            Duration revisitMin, Duration revisitMax, Path out, PrintWriter err) throws Exception {
        Path db = out.resolve("fresh-db");
        Files.deleteIfExists(Path.of(db + ".mv.db"));
        Files.deleteIfExists(Path.of(db + ".trace.db"));
        SiteGraph graph = new SiteGraph(farm, 0);
        List<Sample> samples = new ArrayList<>();
        long id;
        double idleCpuPerSecond;
        double firstPassSeconds = -1;
        int firstPassSample = -1;
        String made;
        JsonNode counters;
        try (FarmProcess farmProcess = FarmProcess.start(mainClass, farmArgs, out.resolve("seeds.txt"));
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            ChildProcess serve = ChildProcess.start(mainClass, List.of("-Xmx1g"), List.of("serve", "--port=0",
                    "--db=jdbc:h2:" + db.toAbsolutePath(), "--per-host=" + perHost, "--no-pinning-watch"), SERVE_READY);
            try {
                Matcher m = PORT.matcher(serve.readyLine());
                if (!m.find()) {
                    throw new IllegalStateException("serve said no port: " + serve.readyLine());
                }
                String api = "http://127.0.0.1:" + m.group(1);
                // The server's own CPU with no job, measured first: what it spends anyway (its samplers, the
                // collector) is said beside the figures, not taken from them.
                double idleFrom = serve.cpu().map(d -> d.toMillis() / 1000.0).orElse(0.0);
                Thread.sleep(IDLE.toMillis());
                double idle = serve.cpu().map(d -> d.toMillis() / 1000.0).orElse(0.0);
                idleCpuPerSecond = (idle - idleFrom) / IDLE.toSeconds();
                samples.add(new Sample(0, idle, rssMb(serve.process().pid()), 0, 0));
                id = postJob(http, api, farmProcess.seeds(), graph.maxDepth(), perHost, farm.totalPages() * 2,
                        revisitMin, revisitMax);
                err.printf(Locale.ROOT, "bench: continuous job %d on serve (pid %d) for %s, revisit %s to %s%n", id,
                        serve.process().pid(), length, revisitMin, revisitMax);
                long start = System.nanoTime();
                long end = start + length.toNanos();
                while (System.nanoTime() < end) {
                    Thread.sleep(Math.min(SAMPLE.toMillis(), Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                    Sample s = sample(start, serve, farmProcess);
                    samples.add(s);
                    if (firstPassSample < 0 && s.pagesServed() >= farm.totalPages() * 0.98) {
                        firstPassSample = samples.size() - 1;
                        firstPassSeconds = s.seconds();
                        err.printf(Locale.ROOT, "bench: first pass over at %.0f s (%,d pages served)%n", s.seconds(),
                                s.pagesServed());
                    }
                }
                send(http, "DELETE", api + "/crawl/" + id, null, -1); // durable: ends the job
                counters = JSON.readTree(farmProcess.counters());
                made = farmProcess.changesMade();
                Files.writeString(out.resolve("fresh-changes-made.txt"), made); // the farm's log, beside the database
            } finally {
                serve.close(); // SIGTERM: the server stops and closes the database
            }
        }
        try (Database database = Database.open("jdbc:h2:" + db.toAbsolutePath())) {
            return FreshnessScore.score(farm, id, database, made, samples, firstPassSample, firstPassSeconds, idleCpuPerSecond, counters,
                    length, revisitMin, revisitMax);
        }
    }

    /** The server's CPU and memory and the farm's counts, {@code start} (nanoTime) being the job's start. */
    private static Sample sample(long start, ChildProcess serve, FarmProcess farmProcess)
            throws IOException, InterruptedException {
        JsonNode c = JSON.readTree(farmProcess.counters());
        return new Sample((System.nanoTime() - start) / 1e9, serve.cpu().map(d -> d.toMillis() / 1000.0).orElse(0.0),
                rssMb(serve.process().pid()), c.get("requests").asLong(), c.get("pagesServed").asLong());
    }

    /** Posts the continuous job; its id. */
    private static long postJob(HttpClient http, String api, List<String> seeds, int maxDepth, int perHost, long maxPages,
            Duration revisitMin, Duration revisitMax) throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(Map.of("seeds", seeds, "maxDepth", maxDepth, "perHostConcurrency", perHost,
                "maxPages", maxPages, "revisit", Map.of("min", revisitMin.toString(), "max", revisitMax.toString())));
        return JSON.readTree(send(http, "POST", api + "/crawl", body, 202)).get("id").asLong();
    }

    private static String send(HttpClient http, String method, String url, String body, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (expected > 0 && r.statusCode() != expected) {
            throw new IOException(method + " " + url + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** A process's resident memory now, from {@code /proc}; 0 where there is none. */
    private static double rssMb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    static void print(Result r, int perHost, PrintWriter out) {
        out.printf(Locale.ROOT, "continuous crawl of %s for %.1f min, revisit %s, per-host %d%n", r.farm(), r.minutes(),
                r.revisit(), perHost);
        out.printf(Locale.ROOT, "  events by kind                 %s%n", r.eventsByKind());
        out.printf(Locale.ROOT, "  recall (changes reported)      %.2f%%  of %,d changes made before a later visit (%,d made)%n",
                100 * r.recall(), r.changesAssessed(), r.changesMade());
        out.printf(Locale.ROOT, "  precision of 'changed'         %.2f%%  of %,d events%n", 100 * r.precision(), r.changedEvents());
        out.printf(Locale.ROOT, "  minor/major right              %.2f%%%n", 100 * r.severityRight());
        out.printf(Locale.ROOT, "  unchanged revisits as 304      %.2f%%  of %,d%n", 100 * r.notModifiedShare(), r.unchangedRevisits());
        out.printf(Locale.ROOT, "  visits per page                %.1f never-changing, %.1f changing every minute (%.2fx)%n",
                r.staticVisitsPerPage(), r.hotVisitsPerPage(), r.staticToHotVisits());
        out.printf(Locale.ROOT, "  CPU per request                %.3f ms first pass (%.0f s), %.3f ms revisits (%.2fx);"
                + " the server idles at %.0f ms/s%n", r.cpuMsPerFirstFetch(), r.firstPassSeconds(), r.cpuMsPerRevisit(),
                r.revisitToFirstCpu(), r.idleCpuPerSecond() * 1000);
        out.printf(Locale.ROOT, "  CPU per request beyond idle    %.3f ms first pass, %.3f ms revisits (%.2fx)%n",
                r.cpuMsPerFirstFetchBeyondIdle(), r.cpuMsPerRevisitBeyondIdle(), r.revisitToFirstCpuBeyondIdle());
        out.printf(Locale.ROOT, "  RSS                            %.0f MB after the first pass, %.0f MB at the end%n",
                r.rssMbAfterFirstPass(), r.rssMbAtEnd());
        out.printf(Locale.ROOT, "  politeness                     %d most in flight per host, %d Retry-After violations%n",
                r.maxInFlightPerHost(), r.retryAfterViolations());
    }
}
