package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.ExecutionMode;
import picocli.CommandLine.Option;

/** Mode, pool size and database, shared by {@code crawl} and {@code serve} (a picocli mixin). */
final class EngineOptions {
    @Option(names = "--mode", paramLabel = "virtual|pool", defaultValue = "virtual",
            description = "Run URL tasks on virtual threads or a platform-thread pool (default: ${DEFAULT-VALUE}).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String mode;
    @Option(names = "--pool-size", paramLabel = "N", defaultValue = "200",
            description = "Platform threads in pool mode (default: ${DEFAULT-VALUE}, Tomcat's default).")
    int poolSize;

    @Option(names = "--db", paramLabel = "JDBC-URL|PATH", defaultValue = DbOption.DEFAULT,
            converter = DbOption.Url.class,
            description = "Database for jobs and pages: H2 (jdbc:h2:..., or an H2 file's path) or PostgreSQL"
                    + " (jdbc:postgresql://...) (default: ${DEFAULT-VALUE}).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String db;
    ExecutionMode executionMode() {
        return ExecutionMode.parse(mode);
    }
}
