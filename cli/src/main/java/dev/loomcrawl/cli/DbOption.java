package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Passwords;
import picocli.CommandLine.Option;

/** {@code --db}, for the commands that only read and write jobs (a picocli mixin). */
final class DbOption {
    static final String DEFAULT = "jdbc:h2:./data/loomcrawl";

    @Option(names = "--db", paramLabel = "JDBC-URL", defaultValue = DEFAULT,
            description = "Database for jobs and pages (default: ${DEFAULT-VALUE}).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String db;

    /**
     * The database, which must be there already (a command that reads jobs): a mistyped {@code --db} is said in
     * one line, and leaves no empty database behind.
     */
    Database existing() {
        if (!Database.exists(db)) {
            throw new IllegalArgumentException("no database at " + Passwords.hidden(db)
                    + " (a crawl makes one there; --db names another)");
        }
        return Database.open(db);
    }
}
