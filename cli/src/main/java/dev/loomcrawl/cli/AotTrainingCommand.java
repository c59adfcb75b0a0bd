package dev.loomcrawl.cli;

import dev.loomcrawl.bench.FarmProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code loomcrawl aot-training} (hidden): the workload the launcher runs once, under
 * {@code -XX:AOTCacheOutput}, so that the JVM records the classes a crawl loads and links. Two short crawls
 * of a mock farm in a child process (its classes stay out of the cache): one printing progress and a
 * table, one printing JSON, the two ways people run {@code crawl}.
 */
@Command(name = "aot-training", hidden = true,
        description = "Crawl a local mock farm briefly, for the launcher's start-up cache.")
final class AotTrainingCommand implements Callable<Integer> {

    @Override
    public Integer call() throws IOException {
        Path dir = Files.createTempDirectory("loomcrawl-aot-training");
        try (FarmProcess farm = FarmProcess.start(Main.class.getName(),
                List.of("--scenario=wide", "--hosts=60", "--latency=5"), dir.resolve("seeds.txt"))) {
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
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
