package dev.loomcrawl.cli;

import picocli.CommandLine.Option;

/** {@code --db}, for the commands that only read and write jobs (a picocli mixin). */
final class DbOption {
    static final String DEFAULT = "jdbc:h2:./data/loomcrawl";

    @Option(names = "--db", paramLabel = "JDBC-URL", defaultValue = DEFAULT,
            description = "Database for jobs and pages (default: ${DEFAULT-VALUE}).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String db;
}
