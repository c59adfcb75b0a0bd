package dev.loomcrawl.cli;

import dev.loomcrawl.bench.BenchCommand;
import dev.loomcrawl.bench.DemoCommand;
import dev.loomcrawl.crawler.ConfigException;
import dev.loomcrawl.crawler.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code loomcrawl <command>}: the entry point of the application jar. */
@Command(name = "loomcrawl", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A web crawler on virtual threads, and a measured comparison with a platform-thread pool.",
        subcommands = {CrawlCommand.class, ResumeCommand.class, JobsCommand.class, ExportCommand.class,
            ServeCommand.class, MockSitesCommand.class, AotTrainingCommand.class})
public final class Main implements Runnable {

    /** Exit code for bad flags, bad URLs and bad values. */
    static final int USAGE = 2;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line and returns its exit code; used by {@link #main} and by tests. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        // The bench and the demo start this application in processes of their own: they are told its main class.
        cli.addSubcommand("demo", new DemoCommand(Main.class.getName()));
        cli.addSubcommand("bench", new BenchCommand(Main.class.getName()));
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // One line, exit code 2, no stack trace: for people and for scripts.
        cli.setParameterExceptionHandler((e, ignored) -> {
            err.println("loomcrawl: " + e.getMessage() + " (see --help)");
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof ConfigException c) {
                err.println("loomcrawl: " + Flags.describe(c));
                return USAGE;
            }
            if (e instanceof IllegalArgumentException) {
                err.println("loomcrawl: " + e.getMessage());
                return USAGE;
            }
            if (e instanceof StoreException || e instanceof IOException || e instanceof IllegalStateException
                    || e instanceof java.io.UncheckedIOException) {
                err.println("loomcrawl: " + e.getMessage());
                return 1;
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

    /** The version the build wrote into {@code loomcrawl-version.properties}. */
    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("/loomcrawl-version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"loomcrawl " + version() + " on Java " + Runtime.version() + " ("
                    + System.getProperty("java.vendor") + ")"};
        }
    }
}
