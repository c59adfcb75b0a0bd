package dev.loomcrawl.bench;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomcrawl demo}: the quick start. A short bench on the demo farm: virtual threads vs 200 threads. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Quick start: crawl 2,000 slow mock pages with virtual threads, then with a 200-thread pool,"
                + " and compare (about 45 s on 2 cores; report in bench-out/demo/report.html).")
public final class DemoCommand implements Callable<Integer> {
    static final String[] ARGS = {"--scenario=demo", "--modes=virtual,pool:200", "--runs=1", "--warmup=1",
        "--out=bench-out/demo"};

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "0",
            description = "Instead: a cluster of N serve nodes (2 to 8) sharing one crawl through an embedded PostgreSQL,"
                    + " one of them killed mid-crawl (about 50 s on 2 cores).")
    int nodes;

    @Option(names = "--db", paramLabel = "JDBC_URL",
            description = "With --nodes: a PostgreSQL of your own instead of the embedded one, e.g."
                    + " jdbc:postgresql://127.0.0.1:5432/loomcrawl?user=u&password=p (the demo's job and its cluster"
                    + " tables are left in it).")
    String db;

    private final String mainClass;

    /** @param mainClass the application's main class, for the farm's own process */
    public DemoCommand(String mainClass) {
        this.mainClass = mainClass;
    }

    @Override
    public Integer call() throws Exception {
        if (nodes != 0) {
            if (nodes < 2 || nodes > 8) {
                throw new IllegalArgumentException("--nodes must be between 2 and 8, was " + nodes);
            }
            if (db != null && !db.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--db must be a PostgreSQL URL (jdbc:postgresql://...), was " + db);
            }
            return new ClusterDemo(mainClass, spec.commandLine().getOut()).run(nodes, db,
                    Path.of("bench-out", "cluster-demo"));
        }
        if (db != null) {
            throw new IllegalArgumentException("--db goes with --nodes: the demo without it runs on an in-memory H2");
        }
        CommandLine bench = new CommandLine(new BenchCommand(mainClass));
        bench.setOut(spec.commandLine().getOut());
        bench.setErr(spec.commandLine().getErr());
        bench.setExecutionExceptionHandler(spec.commandLine().getExecutionExceptionHandler());
        return bench.execute(ARGS);
    }
}
