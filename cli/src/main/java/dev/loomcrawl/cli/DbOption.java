package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Passwords;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** {@code --db}, for the commands that only read and write jobs (a picocli mixin). */
final class DbOption {
    static final String DEFAULT = "jdbc:h2:./data/loomcrawl";

    @Option(names = "--db", paramLabel = "JDBC-URL|PATH", defaultValue = DEFAULT, converter = DbOption.Url.class,
            description = "Database for jobs and pages: a JDBC URL, or an H2 file's path (default: ${DEFAULT-VALUE}).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String db;

    /**
     * A {@code --db} as a JDBC URL: one as given ({@code jdbc:h2:...}, {@code jdbc:postgresql://...}), else the path
     * of an H2 database file, as a user names a file ({@code crawl.db}, {@code data/crawl.mv.db}, {@code /srv/crawl}):
     * H2 takes a path only with a directory ({@code ./crawl}), and names the file itself {@code .mv.db}.
     */
    static final class Url implements ITypeConverter<String> {
        private static final String H2_FILE = ".mv.db";

        @Override
        public String convert(String value) {
            if (value.regionMatches(true, 0, "jdbc:", 0, 5) || value.isBlank()) {
                return value; // a JDBC URL, or nothing: Dialect says what it must be
            }
            String path = value.endsWith(H2_FILE) ? value.substring(0, value.length() - H2_FILE.length()) : value;
            boolean located = Path.of(path).isAbsolute() || path.startsWith("./") || path.startsWith("../")
                    || path.startsWith("~/") || path.startsWith(".\\") || path.startsWith("..\\");
            return "jdbc:h2:" + (located ? "" : "./") + path;
        }
    }

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
