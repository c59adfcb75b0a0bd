package dev.loomcrawl.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loomcrawl aot-training} (hidden): the workload the launcher runs once, under
 * {@code -XX:AOTCacheOutput}, so that the JVM records the classes a crawl loads and links. Two short crawls
 * of a mock farm, one printing progress and a table, one printing JSON, the two ways people run
 * {@code crawl}. The farm runs in a child process on the lab's class path ({@code --lab}): this process has
 * the crawl's class path, as the cache must, and resolves the farm's names as a user's crawl of it does,
 * through a hosts file ({@code -Djdk.net.hosts.file}, set before anything looks a name up).
 */
@Command(name = "aot-training", hidden = true,
        description = "Crawl a local mock farm briefly, for the launcher's start-up cache.")
final class AotTrainingCommand implements Callable<Integer> {
    @Option(names = "--lab", required = true, paramLabel = "CLASSPATH",
            description = "The class path of the lab's commands (the farm's).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String lab;
    @Override
    public Integer call() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("loomcrawl-aot-training");
        // The farm writes its names' hosts file beside its seeds (mock-sites' hosts-SCENARIO.txt); the JDK reads
        // the file at each lookup, so naming it now, before any name was looked up, is enough.
        System.setProperty("jdk.net.hosts.file", dir.resolve("hosts-wide.txt").toString());
        Process farm = startFarm(dir.resolve("seeds.txt"));
        try {
            PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
            List<String> outputs = List.of("--json", "--per-host=8"); // the second: a table and progress
            for (int i = 0; i < outputs.size(); i++) {
                String[] args = {"crawl", "--seeds-file=" + dir.resolve("seeds.txt"), "--max-depth=2", outputs.get(i),
                        "--db=jdbc:h2:" + dir.resolve("db" + i)};
                int code = Main.run(args, nowhere, nowhere);
                if (code != 0) {
                    throw new IllegalStateException("the training crawl (" + String.join(" ", args) + ") exited with "
                            + code);
                }
            }
            return 0;
        } finally {
            farm.destroy();
            farm.waitFor(10, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {@code mock-sites} on the lab's class path, once it says it serves (its seeds are written by then). */
    private Process startFarm(Path seeds) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", lab, Main.class.getName(), "mock-sites", "--scenario=wide", "--hosts=60", "--latency=5",
                "--seeds-file=" + seeds));
        Process farm = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(farm.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("mock-sites ready")) { // MockSites.READY, of the lab
                Thread.ofVirtual().start(() -> out.lines().forEach(l -> { })); // drained, so it never blocks
                return farm;
            }
        }
        throw new IllegalStateException("the training farm ended before it served: " + farm.info());
    }
}
