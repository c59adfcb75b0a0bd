package dev.loomcrawl.api;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code loomcrawl <command>}: the entry point of the application jar. */
@Command(name = "loomcrawl", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A web crawler on virtual threads, and a measured comparison with a platform-thread pool.",
        subcommands = {DemoCommand.class, CrawlCommand.class, ServeCommand.class, BenchCommand.class,
            MockSitesCommand.class})
public final class Main implements Runnable {

    /** Exit code for bad flags, bad URLs and bad values. */
    static final int USAGE = 2;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line and returns its exit code; used by {@link #main} and by tests. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // One line, exit code 2, no stack trace: for people and for scripts.
        cli.setParameterExceptionHandler((e, ignored) -> {
            err.println("loomcrawl: " + e.getMessage() + " (see --help)");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                err.println("loomcrawl: " + e.getMessage());
                return USAGE;
            }
            err.println("loomcrawl: failed: " + e);
            return 1;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        CommandLine.usage(this, System.err);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"loomcrawl " + (version == null ? "dev" : version) + " on Java " + Runtime.version()};
        }
    }
}
