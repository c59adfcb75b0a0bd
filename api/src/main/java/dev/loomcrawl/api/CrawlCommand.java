package dev.loomcrawl.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.CrawlSummary;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.PageStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code loomcrawl crawl}: one crawl, start to end, with progress on stderr and a summary at the end. */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Crawl from the given seeds and print a summary (JSON with --json).")
final class CrawlCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL", arity = "0..*", description = "Seed URLs (http or https).")
    List<String> urls = new ArrayList<>();

    @Option(names = "--seeds-file", paramLabel = "FILE", description = "More seeds, one URL per line; # comments.")
    Path seedsFile;

    @picocli.CommandLine.Mixin
    EngineOptions engine;

    @Option(names = "--per-host", paramLabel = "N", defaultValue = "8",
            description = "Fetches in flight to one host at most (default: ${DEFAULT-VALUE}).")
    int perHost;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "3",
            description = "Links followed from a seed (default: ${DEFAULT-VALUE}).")
    int maxDepth;

    @Option(names = "--max-pages", paramLabel = "N", defaultValue = "10000",
            description = "URLs fetched at most (default: ${DEFAULT-VALUE}).")
    int maxPages;

    @Option(names = "--max-in-flight", paramLabel = "N", defaultValue = "10000",
            description = "Fetches in flight across all hosts at most (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--allow-host", paramLabel = "HOST", split = ",",
            description = "Hosts whose links are followed (default: the seeds' hosts; * for any).")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Seconds to wait for response headers (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "2",
            description = "Further attempts after a connect error, reset, 5xx or 429 (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--host-delay-ms", paramLabel = "MS", defaultValue = "0",
            description = "Least time between two requests to one host (default: ${DEFAULT-VALUE}).")
    long hostDelayMs;

    @Option(names = "--fetch-deadline", paramLabel = "SECONDS", defaultValue = "30",
            description = "Seconds for a whole fetch, body included (default: ${DEFAULT-VALUE}).")
    double fetchDeadlineSeconds;

    @Option(names = "--refuse-private", description = "Refuse hosts that resolve to loopback or private addresses.")
    boolean refusePrivate;

    @Option(names = "--ignore-robots", description = "Do not fetch or obey robots.txt.")
    boolean ignoreRobots;


    @Option(names = "--json", description = "Print exactly one JSON object on stdout at the end.")
    boolean json;

    @Option(names = "--quiet", description = "No progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        CrawlConfig config = config();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PageStore store = PageStore.open(engine.db); Crawler crawler = new Crawler(store)) {
            CrawlJob job = crawler.start(config, Json.MAPPER.writeValueAsString(CrawlRequest.of(config)));
            Thread onCtrlC = new Thread(() -> { // stop promptly, and keep every page stored so far
                job.cancel();
                try {
                    job.await(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    store.close(); // the JVM halts when hooks return: drain the writer here
                }
            });
            Runtime.getRuntime().addShutdownHook(onCtrlC);
            CrawlSummary summary = quiet ? job.awaitSummary() : Progress.follow(job, err);
            Runtime.getRuntime().removeShutdownHook(onCtrlC);
            if (json) {
                out.println(new ObjectMapper().writeValueAsString(summary));
            } else {
                SummaryTable.print(summary, out);
            }
            return job.failureMessage().map(message -> {
                err.println("loomcrawl: job failed: " + message);
                return 1;
            }).orElse(0);
        }
    }

    CrawlConfig config() throws IOException {
        List<String> seeds = new ArrayList<>(urls);
        if (seedsFile != null) {
            if (!Files.isReadable(seedsFile)) {
                throw new IllegalArgumentException("--seeds-file: cannot read " + seedsFile);
            }
            try (var lines = Files.lines(seedsFile)) {
                lines.map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).forEach(seeds::add);
            }
        }
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seed URL: give at least one URL or --seeds-file");
        }
        CrawlConfig.Builder builder = CrawlConfig.builder()
                .mode(engine.executionMode())
                .poolSize(engine.poolSize)
                .perHostConcurrency(perHost)
                .maxDepth(maxDepth)
                .maxPages(maxPages)
                .maxInFlight(maxInFlight)
                .requestTimeout(Duration.ofMillis(Math.max(1, Math.round(timeoutSeconds * 1000))))
                .fetchDeadline(Duration.ofMillis(Math.max(1, Math.round(fetchDeadlineSeconds * 1000))))
                .maxRetries(retries)
                .hostDelay(Duration.ofMillis(hostDelayMs))
                .refusePrivateAddresses(refusePrivate)
                .respectRobots(!ignoreRobots);
        seeds.forEach(builder::seed);
        allowHosts.forEach(builder::allowHost);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Flags.rename(e.getMessage()), e);
        }
    }
}
