package dev.loomcrawl.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * This application in a child process ({@code java -cp <our class path> <main class> <args>}), started and
 * waited for until it prints a line starting with a given prefix. Destroyed on {@link #close()} and by a
 * shutdown hook, so Ctrl-C leaves nothing behind.
 */
public final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Thread hook;
    private final String readyLine;
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());

    private ChildProcess(String mainClass, List<String> jvmOptions, List<String> args, String readyPrefix, Duration timeout)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        hook = new Thread(process::destroy);
        Runtime.getRuntime().addShutdownHook(hook);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String found = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        String line;
        while (found == null && System.nanoTime() < deadline && (line = out.readLine()) != null) {
            output.add(line);
            if (line.startsWith(readyPrefix)) {
                found = line;
            }
        }
        if (found == null) {
            close();
            throw new IllegalStateException(args.getFirst() + " did not start: " + String.join(" | ", output));
        }
        readyLine = found;
        Thread.ofVirtual().name("child-output").start(() -> out.lines().forEach(output::add)); // keep the pipe drained
    }

    /**
     * Starts {@code mainClass} on this JVM's class path and waits (up to a minute) for a line starting with
     * {@code readyPrefix}.
     */
    public static ChildProcess start(String mainClass, List<String> jvmOptions, List<String> args, String readyPrefix)
            throws IOException {
        return new ChildProcess(mainClass, jvmOptions, args, readyPrefix, Duration.ofSeconds(60));
    }

    public String readyLine() {
        return readyLine;
    }

    /** Every line the process has printed so far (stdout and stderr together). */
    public List<String> output() {
        synchronized (output) {
            return List.copyOf(output);
        }
    }

    public Optional<Duration> cpu() {
        return process.toHandle().info().totalCpuDuration();
    }

    /** SIGKILL: no shutdown hook, no flush. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** The process, for signals and its exit code. */
    public Process process() {
        return process;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or ran
        }
    }
}
