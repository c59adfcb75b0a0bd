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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One blocking HTTP GET per call, on the caller's thread: {@link HttpClient#send} parks a virtual thread
 * and blocks a platform one, which is the whole point of the comparison.
 */
final class Fetcher implements AutoCloseable {

    /**
     * Closes the body of a fetch that overruns its deadline, so a server dribbling bytes cannot hold a
     * host permit forever. One platform thread for all fetches; a timer per fetch is a heap entry.
     */
    private static final ScheduledThreadPoolExecutor DEADLINES = deadlineTimer();

    private final HttpClient client;
    private final Duration fetchDeadline;
    private final boolean refusePrivateAddresses;
    private final ExecutorService clientExecutor;
    private final Duration requestTimeout;
    private final int maxBodyBytes;
    private final String userAgent;

    Fetcher(CrawlConfig config) {
        this(config.connectTimeout(), config.requestTimeout(), config.fetchDeadline(), config.maxBodyBytes(),
                config.userAgent(), config.refusePrivateAddresses());
    }

    Fetcher(Duration connectTimeout, Duration requestTimeout, Duration fetchDeadline, int maxBodyBytes,
            String userAgent, boolean refusePrivateAddresses) {
        this.fetchDeadline = fetchDeadline;
        this.refusePrivateAddresses = refusePrivateAddresses;
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
        if (refusePrivateAddresses) {
            String refused = privateAddress(url.host());
            if (refused != null) {
                return new FetchResult.Failed(FailureKind.CONNECT, refused, 0, null, System.nanoTime() - start);
            }
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(url.url()))
                .timeout(requestTimeout)
                .header("User-Agent", userAgent)
                .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
                .GET()
                .build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            long left = fetchDeadline.toNanos() - (System.nanoTime() - start);
            InputStream body = response.body();
            Deadline deadline = new Deadline(body);
            ScheduledFuture<?> timer = DEADLINES.schedule(deadline, Math.max(0, left), TimeUnit.NANOSECONDS);
            try (body) {
                FetchResult result = interpret(response, body, start, robots);
                deadline.finish(); // cut just as the read completed: the result is whole, keep it
                return result;
            } catch (IOException e) {
                if (deadline.finish()) {
                    return new FetchResult.Failed(FailureKind.TIMEOUT, "body not complete within "
                            + fetchDeadline.toMillis() + " ms", response.statusCode(), null, System.nanoTime() - start);
                }
                throw e;
            } finally {
                timer.cancel(false);
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
            java.time.Duration retryAfter = RetryPolicy.parseRetryAfter(
                    response.headers().firstValue("Retry-After").orElse(null), java.time.ZonedDateTime.now());
            return new FetchResult.Failed(FailureKind.HTTP_STATUS, "HTTP " + status, status, contentType,
                    System.nanoTime() - start, retryAfter);
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

    /**
     * Why {@code host} must not be fetched on a public-web crawl, or null. Checked before connecting;
     * a DNS answer that changes between this check and the connection is not caught.
     */
    static String privateAddress(String host) {
        try {
            for (java.net.InetAddress address : java.net.InetAddress.getAllByName(host)) {
                byte[] b = address.getAddress();
                boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc; // fc00::/7
                if (address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                        || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6) {
                    return "refused: " + host + " resolves to private address " + address.getHostAddress();
                }
            }
            return null;
        } catch (java.net.UnknownHostException e) {
            return null; // the fetch itself will fail to connect, and say so
        }
    }

    /**
     * Cuts a body read that overruns: interrupts the reading thread (closing the stream alone does not
     * wake a reader blocked in the JDK's response stream) and closes the stream. The lock makes the cut
     * and the end of the read exclusive, so an interrupt meant for the read never reaches the rest of the
     * task, where it would look like a cancelled job.
     */
    private static final class Deadline implements Runnable {
        private final Thread reader = Thread.currentThread();
        private final InputStream body;
        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        private boolean finished;
        private boolean cut;

        Deadline(InputStream body) {
            this.body = body;
        }

        @Override
        public void run() {
            lock.lock();
            try {
                if (finished) {
                    return;
                }
                cut = true;
                reader.interrupt();
            } finally {
                lock.unlock();
            }
            closeQuietly(body);
        }

        /** The reader is done with the body; true if the deadline cut it (its interrupt is cleared). */
        boolean finish() {
            lock.lock();
            try {
                finished = true;
                if (cut) {
                    Thread.interrupted();
                }
                return cut;
            } finally {
                lock.unlock();
            }
        }
    }

    private static ScheduledThreadPoolExecutor deadlineTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("fetch-deadlines").daemon(true).factory());
        timer.setRemoveOnCancelPolicy(true); // finished fetches leave nothing behind
        return timer;
    }

    private static void closeQuietly(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // the reader sees the stream closed, which is the point
        }
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

    /**
     * Ends the client without waiting: {@code HttpClient.close()} (and even {@code awaitTermination} after
     * {@code shutdownNow()}) waits for exchanges still running, such as a body the deadline already cut
     * that the server goes on dribbling until it is done. Nothing more is wanted from them; their
     * connections close when their servers stop.
     */
    @Override
    public void close() {
        client.shutdownNow();
        clientExecutor.shutdownNow();
    }
}
