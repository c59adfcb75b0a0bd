package dev.loomcrawl.crawler;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One blocking HTTP GET per call, on the caller's thread: {@link HttpClient#send} parks a virtual thread
 * and blocks a platform one, which is the whole point of the comparison.
 */
final class Fetcher implements AutoCloseable {

    private final HttpClient client;
    private final ExecutorService clientExecutor;
    private final Duration requestTimeout;
    private final int maxBodyBytes;
    private final String userAgent;

    Fetcher(CrawlConfig config) {
        this(config.connectTimeout(), config.requestTimeout(), config.maxBodyBytes(), config.userAgent());
    }

    Fetcher(Duration connectTimeout, Duration requestTimeout, int maxBodyBytes, String userAgent) {
        // The client's own async work (handing response bytes to the waiting sender) runs on virtual
        // threads in both modes, so it never grows a platform thread per request and adds nothing to
        // either mode's thread count.
        this.clientExecutor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-vt-", 0).factory());
        this.client = HttpClient.newBuilder()
                // HTTP/1.1 only: the default h2c upgrade fails with "too many concurrent streams" under load.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER) // each hop is a new URL for the frontier
                .connectTimeout(connectTimeout)
                .executor(clientExecutor)
                .build();
        this.requestTimeout = requestTimeout;
        this.maxBodyBytes = maxBodyBytes;
        this.userAgent = userAgent;
    }

    FetchResult fetch(CrawlUrl url) throws InterruptedException {
        return fetch(url, false);
    }

    /** robots.txt: any content type, and a long file is cut at {@link Robots#MAX_BYTES}, not refused. */
    FetchResult fetchRobots(CrawlUrl url) throws InterruptedException {
        return fetch(url, true);
    }

    private FetchResult fetch(CrawlUrl url, boolean robots) throws InterruptedException {
        long start = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url.url()))
                .timeout(requestTimeout)
                .header("User-Agent", userAgent)
                .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
                .GET()
                .build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                return interpret(response, body, start, robots);
            }
        } catch (IOException e) {
            return new FetchResult.Failed(classify(e), describe(e), 0, null, System.nanoTime() - start);
        }
    }

    private FetchResult interpret(HttpResponse<InputStream> response, InputStream body, long start, boolean robots)
            throws IOException {
        int status = response.statusCode();
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        if (status >= 300 && status < 400) {
            String location = response.headers().firstValue("Location").orElse(null);
            return new FetchResult.Fetched(status, contentType, new byte[0], location, System.nanoTime() - start);
        }
        if (status >= 400 || status < 200) {
            return new FetchResult.Failed(FailureKind.HTTP_STATUS, "HTTP " + status, status, contentType,
                    System.nanoTime() - start);
        }
        if (robots) {
            return new FetchResult.Fetched(status, contentType, body.readNBytes(Robots.MAX_BYTES), null,
                    System.nanoTime() - start);
        }
        if (!isHtml(contentType)) {
            return new FetchResult.Failed(FailureKind.NOT_HTML, contentType.isEmpty() ? "no content type" : contentType,
                    status, contentType, System.nanoTime() - start);
        }
        byte[] bytes = body.readNBytes(maxBodyBytes + 1);
        if (bytes.length > maxBodyBytes) {
            return new FetchResult.Failed(FailureKind.TOO_LARGE, "body over " + maxBodyBytes + " bytes", status,
                    contentType, System.nanoTime() - start);
        }
        return new FetchResult.Fetched(status, contentType, bytes, null, System.nanoTime() - start);
    }

    static boolean isHtml(String contentType) {
        String type = contentType.toLowerCase(Locale.ROOT);
        return type.startsWith("text/html") || type.startsWith("application/xhtml+xml");
    }

    static FailureKind classify(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return FailureKind.CONNECT;
        }
        if (e instanceof HttpTimeoutException) {
            return FailureKind.TIMEOUT;
        }
        if (e instanceof ConnectException || e instanceof UnknownHostException
                || e.getCause() instanceof UnresolvedAddressException) {
            return FailureKind.CONNECT;
        }
        if (e instanceof ProtocolException) {
            return FailureKind.PROTOCOL;
        }
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("reset") || message.contains("received no bytes") || message.contains("eof")
                || message.contains("closed")) {
            return FailureKind.RESET;
        }
        if (message.contains("pars") || message.contains("chunk") || message.contains("invalid")
                || message.contains("header") || message.contains("protocol") || message.contains("bad ")) {
            return FailureKind.PROTOCOL;
        }
        return FailureKind.IO;
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    @Override
    public void close() {
        client.close();
        clientExecutor.close();
    }
}
