package dev.loomcrawl.api;

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
final class FarmProcess implements AutoCloseable {
    private final AppProcess process;
    private final int port;
    private final List<String> seeds;
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private FarmProcess(List<String> farmArgs, Path seedsFile) throws IOException {
        List<String> args = new ArrayList<>(List.of("mock-sites", "--seeds-file=" + seedsFile));
        args.addAll(farmArgs);
        process = AppProcess.start(List.of("-Xmx2g"), args, MockSitesCommand.READY);
        String ready = process.readyLine();
        port = Integer.parseInt(ready.substring(ready.lastIndexOf(' ') + 1).strip());
        seeds = Files.readAllLines(seedsFile);
    }

    static FarmProcess start(List<String> farmArgs, Path seedsFile) throws IOException {
        return new FarmProcess(farmArgs, seedsFile);
    }

    int port() {
        return port;
    }

    List<String> seeds() {
        return seeds;
    }

    /** The farm's own CPU time so far. */
    Optional<Duration> cpu() {
        return process.cpu();
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
        process.close();
        admin.close();
    }
}
