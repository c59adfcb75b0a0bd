package dev.loomcrawl.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The mock-site farm in a process of its own, so that the crawler's thread, heap and CPU figures are its
 * own and not WireMock's. Stopped on {@link #close()}, and by a shutdown hook on Ctrl-C.
 */
final class FarmProcess implements AutoCloseable {
    private final Process process;
    private final Thread hook;
    private final int port;
    private final List<String> seeds;
    private final List<String> banner = new ArrayList<>();
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private FarmProcess(List<String> farmArgs, Path seedsFile) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx2g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.add("mock-sites");
        command.add("--seeds-file=" + seedsFile);
        command.addAll(farmArgs);
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        hook = new Thread(process::destroy);
        Runtime.getRuntime().addShutdownHook(hook);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        int found = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while (found < 0 && System.nanoTime() < deadline && (line = out.readLine()) != null) {
            banner.add(line);
            if (line.startsWith(MockSitesCommand.READY)) {
                found = Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1).strip());
            }
        }
        if (found < 0) {
            close();
            throw new IllegalStateException("mock-sites did not start: " + String.join(" | ", banner));
        }
        port = found;
        seeds = Files.readAllLines(seedsFile);
        Thread.ofVirtual().name("farm-output").start(() -> out.lines().forEach(l -> { })); // keep the pipe drained
    }

    static FarmProcess start(List<String> farmArgs, Path seedsFile) throws IOException, InterruptedException {
        return new FarmProcess(farmArgs, seedsFile);
    }

    int port() {
        return port;
    }

    List<String> seeds() {
        return seeds;
    }

    List<String> banner() {
        return banner;
    }

    /** The farm's own CPU time so far. */
    Optional<Duration> cpu() {
        return process.toHandle().info().totalCpuDuration();
    }

    /** Counters as JSON text, read from the farm's admin endpoint. */
    String counters() throws IOException, InterruptedException {
        return call("GET", "/__admin/farm/counters");
    }

    void reset() throws IOException, InterruptedException {
        call("POST", "/__admin/farm/reset");
    }

    private String call(String method, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = admin.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("farm admin " + path + " answered " + response.statusCode());
        }
        return response.body();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
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
        admin.close();
    }
}
