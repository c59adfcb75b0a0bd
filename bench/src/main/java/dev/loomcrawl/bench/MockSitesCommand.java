package dev.loomcrawl.bench;

import dev.loomcrawl.mocksites.FarmConfig;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomcrawl mock-sites}: a farm of slow hosts on 127.0.0.1, until stopped. */
@Command(name = "mock-sites", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serve a farm of many slow mock hosts on 127.0.0.1 until stopped (Ctrl-C).")
public final class MockSitesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "seed",
            description = "demo, seed, slow, polite, faults, wide, deep, rough, huge or large (default: ${DEFAULT-VALUE}).")
    String scenario;

    @Option(names = "--port", paramLabel = "N", defaultValue = "0", description = "Port on 127.0.0.1 (default: a free one).")
    int port;

    @Mixin
    FarmOptions farmOptions;

    @Option(names = "--seeds-file", paramLabel = "FILE",
            description = "Write every host's root URL here (default: data/seeds-<scenario>.txt).")
    Path seedsFile;

    @Option(names = "--hosts-file", description = "Print /etc/hosts lines for crawlers outside the JVM, and exit.")
    boolean hostsFile;

    @Override
    public Integer call() throws Exception {
        Scenario chosen = Scenario.parse(scenario);
        FarmConfig config = farmOptions.apply(chosen.config().withPort(port));
        PrintWriter out = spec.commandLine().getOut();
        try (MockSites farm = MockSites.start(config)) {
            if (hostsFile) {
                out.print(farm.hostsFileSnippet());
                out.flush();
                return 0;
            }
            Path seeds = seedsFile != null ? seedsFile : Path.of("data", "seeds-" + chosen.label() + ".txt");
            if (seeds.toAbsolutePath().getParent() != null) {
                Files.createDirectories(seeds.toAbsolutePath().getParent());
            }
            Files.write(seeds, farm.seedUrls());
            // The farm's names resolve to 127.0.0.1 through a hosts file handed to the crawl's JVM
            // (-Djdk.net.hosts.file, the JDK's own resolver): a crawl loads no resolver of ours.
            Path hosts = seeds.resolveSibling("hosts-" + chosen.label() + ".txt");
            Files.writeString(hosts, farm.hostsFileSnippet());
            out.printf("scenario   %s: %s%n", chosen.label(), chosen.description());
            out.printf("farm       %,d hosts x %,d pages = %,d pages, latency %s, links %d/page, depth %d%n",
                    config.hosts(), config.pagesPerHost(), config.totalPages(), config.latency(),
                    config.linksPerPage(), farm.graph().maxDepth());
            out.printf("first seed %s%n", farm.seedUrls().getFirst());
            out.printf("seeds      %s (%,d URLs)%n", seeds, config.hosts());
            out.printf("counters   %s  (POST .../reset to clear)%n", farm.adminUrl());
            out.printf("hosts      %s (its names, for the crawl's JVM)%n", hosts);
            out.printf("crawl it   LOOMCRAWL_JAVA_OPTS=-Djdk.net.hosts.file=%s ./loomcrawl crawl --seeds-file=%s"
                    + " --max-depth=%d --max-pages=%d%n", hosts, seeds, farm.graph().maxDepth() + 1, config.totalPages() * 3);
            out.printf("%s on port %d%n", MockSites.READY, farm.port());
            out.flush();
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown));
            stopped.await();
        }
        return 0;
    }
}
