package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code loomcrawl <command>}: the entry point of the application jar. */
@Command(name = "loomcrawl", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A web crawler on virtual threads, and a measured comparison with a platform-thread pool.")
public final class Main implements Runnable {

    /**
     * The commands, by the name each declares, in the order {@code --help} lists them. Picocli builds the
     * model of every command it is given (reflection over each option) before it parses a word; a cold
     * {@code crawl} spent 150 ms there, most of it on the other commands. So a command line that names a
     * command gets that one alone, and only one that does not (bare {@code --help}, a typo) gets them all.
     */
    static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("crawl", CrawlCommand::new);
        commands.put("resume", ResumeCommand::new);
        commands.put("recrawl", RecrawlCommand::new);
        commands.put("jobs", JobsCommand::new);
        commands.put("export", ExportCommand::new);
        commands.put("serve", ServeCommand::new);
        commands.put("aot-training", AotTrainingCommand::new);
        // The lab: the demo, the bench and the mock farm, with WireMock and an embedded PostgreSQL behind them.
        // Their jars are on the class path of these commands alone (the launchers add lib/lab), so a crawl or a
        // server loads none of it. The bench and the demo start this application in processes of their own:
        // they are told its main class.
        commands.put("demo", () -> lab("dev.loomcrawl.bench.DemoCommand", Main.class.getName()));
        commands.put("bench", () -> lab("dev.loomcrawl.bench.BenchCommand", Main.class.getName()));
        commands.put("mock-sites", () -> lab("dev.loomcrawl.bench.MockSitesCommand"));
        return Collections.unmodifiableMap(commands);
    }

    /** A command of the lab, made by name: its classes are on the class path only where the launcher put them. */
    private static Object lab(String className, String... args) {
        try {
            Class<?> command = Class.forName(className);
            return args.length == 0 ? command.getConstructor().newInstance()
                    : command.getConstructor(String.class).newInstance(args[0]);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("this command needs the lab's libraries (lib/lab), which the launcher adds"
                    + " for demo, bench and mock-sites: run it through ./loomcrawl or bin/loomcrawl");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make " + className + ": " + e, e);
        }
    }

    /** An error as the one line a user sees: never a password, whatever the message quotes. */
    static String line(@Nullable String message) {
        return "loomcrawl: " + Passwords.hidden(String.valueOf(message));
    }

    /** Exit code for bad flags, bad URLs and bad values. */
    static final int USAGE = 2;

    /**
     * Set by the launcher before it records the start-up cache: crawl and resume read their command line and
     * end there, so a line they would refuse is refused before the recording, not after it.
     */
    static final boolean CHECK_ONLY = Boolean.getBoolean("loomcrawl.checkOnly");

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs a command line and returns its exit code; used by {@link #main} and by tests. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        Supplier<Object> named = args.length == 0 ? null : COMMANDS.get(args[0]);
        if (named != null) {
            try {
                cli.addSubcommand(args[0], named.get());
            } catch (IllegalStateException e) { // a lab command without the lab's libraries
                err.println(line(e.getMessage()));
                return 1;
            }
        } else {
            COMMANDS.forEach((name, command) -> {
                try {
                    cli.addSubcommand(name, command.get());
                } catch (IllegalStateException e) {
                    // listed only where its libraries are: the launchers list every command with them
                }
            });
        }
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // One line, exit code 2, no stack trace: for people and for scripts.
        cli.setParameterExceptionHandler((e, ignored) -> {
            if (e instanceof CommandLine.UnmatchedArgumentException u && !u.isUnknownOption()
                    && !u.getSuggestions().isEmpty() && u.getCommandLine() == cli) {
                // a mistyped command: name the nearest, as git does
                err.println(line("'" + u.getUnmatched().getFirst() + "' is not a command; did you mean "
                        + String.join(" or ", u.getSuggestions()) + "? (see --help)"));
                return USAGE;
            }
            err.println(line(e.getMessage() + " (see --help)"));
            return USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof ConfigException c) {
                err.println(line(Flags.describe(c)));
                return USAGE;
            }
            if (e instanceof IllegalArgumentException) {
                err.println(line(e.getMessage()));
                return USAGE;
            }
            if (e instanceof StoreException || e instanceof IOException || e instanceof IllegalStateException
                    || e instanceof java.io.UncheckedIOException) {
                err.println(line(e.getMessage()));
                return 1;
            }
            err.println(line("failed: " + e));
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
