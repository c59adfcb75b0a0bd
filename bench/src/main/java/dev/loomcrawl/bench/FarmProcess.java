package dev.loomcrawl.bench;

import dev.loomcrawl.mocksites.MockSites;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mock-site farm in a process of its own, so that the crawler's thread, heap and CPU figures are its
 * own and not WireMock's. Stopped on {@link #close()}, and by a shutdown hook on Ctrl-C.
 */
public final class FarmProcess implements AutoCloseable {
    private final ChildProcess process;
    private final int port;
    private final List<String> seeds;
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private FarmProcess(String mainClass, List<String> farmArgs, Path seedsFile) throws IOException {
        List<String> args = new ArrayList<>(List.of("mock-sites", "--seeds-file=" + seedsFile));
        args.addAll(farmArgs);
        process = ChildProcess.start(mainClass, List.of("-Xmx2g"), args, MockSites.READY);
        String ready = process.readyLine();
        port = Integer.parseInt(ready.substring(ready.lastIndexOf(' ') + 1).strip());
        seeds = Files.readAllLines(seedsFile);
    }

    /** @param mainClass the application's main class, whose {@code mock-sites} command serves the farm */
    public static FarmProcess start(String mainClass, List<String> farmArgs, Path seedsFile) throws IOException {
        return new FarmProcess(mainClass, farmArgs, seedsFile);
    }

    public int port() {
        return port;
    }

    public List<String> seeds() {
        return seeds;
    }

    /** The farm's own CPU time so far. */
    public Optional<Duration> cpu() {
        return process.cpu();
    }

    /** Counters as JSON text, read from the farm's admin endpoint. */
    public String counters() throws IOException, InterruptedException {
        return call("GET", "/__admin/farm/counters");
    }

    /** Every change the farm's pages made so far, one per line: URL, kind, epoch milliseconds. */
    public String changesMade() throws IOException, InterruptedException {
        return call("GET", "/__admin/farm/changes");
    }

    public void reset() throws IOException, InterruptedException {
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
        process.close();
        admin.close();
    }
}
