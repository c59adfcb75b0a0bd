package dev.loomcrawl.bench;

import dev.loomcrawl.mocksites.MockSites;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A process of a cold bench ({@link ColdBench}), run under GNU time: its wall time, CPU (user + system) and peak
 * RSS, its exit code and its stdout.
 */
record TimedProcess(double wallSeconds, double cpuSeconds, double peakRssMb, int exitCode, String stdout) {

    /**
     * This JVM's {@code java} with {@code variant}'s options and {@code mainAndArgs}, on the application's class
     * path as the launcher gives it to a crawl ({@code -Dloomcrawl.classpath}; this JVM's own where none is
     * given, as in tests), and the farm's name resolver: the farm's names cost no lookup, as Colly's dialer,
     * which connects its names to 127.0.0.1, costs none. (A crawl from the launcher has no resolver of ours and
     * reads the farm's names from a hosts file: 0.35 CPU-s of lookups on 1,000 hosts, see {@link MockSites#hostsFile}.)
     */
    static List<String> java(Variant variant, List<String> mainAndArgs) {
        return command(variant, List.of(), mainAndArgs);
    }

    /**
     * {@link #java(Variant, List)} for a main class of the lab's own ({@link FetchFloor}), whose jar, the bench's,
     * the application's class path does not have.
     */
    static List<String> labJava(Variant variant, Class<?> main, List<String> args) {
        List<String> mainAndArgs = new ArrayList<>(List.of(main.getName()));
        mainAndArgs.addAll(args);
        return command(variant, List.of(jarOf(main)), mainAndArgs);
    }

    /** The command of {@link #java} and {@link #labJava}: {@code lab}, jars of the lab's, after the application's. */
    private static List<String> command(Variant variant, List<String> lab, List<String> mainAndArgs) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java")));
        command.addAll(variant.jvmOptions());
        String app = System.getProperty("loomcrawl.classpath", System.getProperty("java.class.path"));
        List<String> classPath = new ArrayList<>(List.of(app, jarOf(MockSites.class))); // the farm's resolver
        classPath.addAll(lab);
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath)));
        command.addAll(mainAndArgs);
        return command;
    }

    /**
     * Where {@code type}'s classes are: a jar, or a folder of classes in a build. The farm's resolver
     * ({@code TestDomainResolverProvider}, a service) is in the mock-sites jar.
     */
    private static String jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(type.getSimpleName() + "'s jar has no path: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code command} under GNU time.
     *
     * @param what the process, as an error names it
     * @throws IOException if GNU time left no figures
     */
    static TimedProcess run(List<String> command, String what, Path stderr, Path out)
            throws IOException, InterruptedException {
        Path timeFile = out.resolve("time.txt");
        Files.deleteIfExists(timeFile);
        List<String> timedCommand = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S %M", "-o",
                timeFile.toString()));
        timedCommand.addAll(command);
        Process p = new ProcessBuilder(timedCommand).redirectError(stderr.toFile()).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(what + " ran over 30 minutes");
        }
        // GNU time writes a line about the command's exit status before its figures when it is not 0.
        String[] t = Files.readAllLines(timeFile).getLast().strip().split("\\s+");
        if (t.length != 4) {
            throw new IOException(what + " was not timed: " + String.join(" ", t));
        }
        return new TimedProcess(Double.parseDouble(t[0]), Double.parseDouble(t[1]) + Double.parseDouble(t[2]),
                Long.parseLong(t[3]) / 1024.0, p.exitValue(), stdout);
    }
}
