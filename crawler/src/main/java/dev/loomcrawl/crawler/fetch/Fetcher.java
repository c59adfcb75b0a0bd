package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.net.ssl.SSLHandshakeException;
import org.jspecify.annotations.Nullable;

/**
 * One blocking HTTP GET per call, on the caller's thread: {@link HttpClient#send} parks a virtual thread
 * and blocks a platform one, which is the whole point of the comparison.
 *
 * <p>It asks for gzip, deflate and br (Brotli), as Googlebot does, and decodes them (the JDK client does not);
 * the body limit applies to the bytes received and to the decoded bytes, so an HTML page longer than it (a gzip
 * bomb too) is cut there, and any other type fails as {@code too-large}, instead of filling the heap. Types the job does not keep are recorded with their size, their
 * bodies not kept.
 */
public final class Fetcher implements AutoCloseable {

    /** What a fetch is for: a page, or a robots.txt or sitemap (any type, a different size limit). */
    public enum Purpose { PAGE, ROBOTS, SITEMAP }

    /** The most of a robots.txt read (RFC 9309: parse at least 500 KiB); the rest is cut, not refused. */
    public static final int MAX_ROBOTS_BYTES = 512 * 1024;

    private final FetchSettings settings;
    private final HostNames names;
    private final Deadlines deadlines;
    private final HttpClient[] clients;
    private final RequestAudit audit;
    private final ResponseReader reader;

    /**
     * @param names the process's record of which host names exist
     * @param deadlines the crawler's keeper of fetch deadlines
     */
    public Fetcher(FetchSettings settings, HostNames names, Deadlines deadlines) {
        this(settings, names, deadlines, RequestAudit.NONE);
    }

    /** @param audit told of each request as it leaves and comes back: a job's politeness audit */
    public Fetcher(FetchSettings settings, HostNames names, Deadlines deadlines, RequestAudit audit) {
        this.audit = audit;
        this.settings = settings;
        this.reader = new ResponseReader(settings);
        this.names = names;
        this.deadlines = deadlines;
        this.clients = CrawlHttpClients.open(settings.connectTimeout(), settings.proxy(), settings.tls(),
                settings.cookies() ? new SiteCookies() : null);
    }

    /** The request a fetch of {@code url} sends; also what a WARC request record shows. */
    public HttpRequest request(CrawlUrl url) {
        return request(url, null, null);
    }

    /**
     * What a revisit sends to be answered 304 if the page is as it was: the {@code ETag} and {@code Last-Modified}
     * its last visit got, either may be null.
     */
    public record Validators(@Nullable String etag, @Nullable String lastModified) {
        /** The validators a stored visit found, or null when it found none. */
        public static @Nullable Validators of(@Nullable String etag, @Nullable String lastModified) {
            return etag == null && lastModified == null ? null : new Validators(etag, lastModified);
        }
    }

    private HttpRequest request(CrawlUrl url, @Nullable BooleanSupplier mayStart, @Nullable Validators validators) {
        // No .timeout(): send(...) below keeps the header timeout (see there).
        HttpRequest.Builder b = HttpRequest.newBuilder(url.toUri())
                .header("User-Agent", settings.userAgent())
                .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
                .header("Accept-Encoding", "gzip, deflate, br");
        settings.headers().forEach(b::setHeader);
        if (validators != null) { // a revisit asks conditionally: an unchanged page is answered 304, without a body
            if (validators.etag() != null) {
                b.setHeader("If-None-Match", validators.etag());
            }
            if (validators.lastModified() != null) {
                b.setHeader("If-Modified-Since", validators.lastModified());
            }
        }
        return (mayStart == null ? b.GET() : b.method("GET", new StartCheck(mayStart))).build();
    }

    /**
     * A request that was never sent: its start check said no as the client was about to write it (a cluster
     * node's lease on the host ran out, or the host was told to rest meanwhile). Nothing reached the server.
     */
    public static final class NotSent extends Exception {
        NotSent() {
            super("not sent: the start check said no as the request was about to leave", null, false, false);
        }
    }

    /** What {@link StartCheck} throws inside the client; {@link #send} turns it into {@link NotSent}. */
    private static final class Refused extends RuntimeException {
        Refused() {
            super("start check said no", null, false, false);
        }
    }

    /**
     * The empty body of a GET that asks {@code mayStart} at the last moment our code runs before a request
     * leaves: the JDK client reads a body's length as it builds the request head (HTTP/1.1), after the
     * connection is open and for any retry of its own too. Asked only before the exchange, a check leaves a
     * longer window (a new connection's handshake, a wait for a core) in which a process paused by the OS
     * holds a request that goes out when it wakes. What remains is the hand-off to the client's selector
     * thread, which writes the head: well under a millisecond, up to 13 ms on an overloaded machine. The head
     * carries {@code Content-Length: 0}.
     */
    private record StartCheck(BooleanSupplier mayStart) implements HttpRequest.BodyPublisher {
        private static final HttpRequest.BodyPublisher EMPTY = HttpRequest.BodyPublishers.noBody();

        @Override
        public long contentLength() {
            if (!mayStart.getAsBoolean()) {
                throw new Refused(); // the client closes the connection and fails the exchange: nothing is written
            }
            return 0;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            EMPTY.subscribe(subscriber);
        }
    }

    public FetchResult fetch(CrawlUrl url, Purpose purpose) throws InterruptedException {
        try {
            return fetch(url, purpose, null, null);
        } catch (NotSent e) {
            throw new AssertionError("no start check, nothing refused", e);
        }
    }

    /**
     * @param onHeaders told as soon as the response's headers are in, before its body is read (the server is
     *     done with the request), of the rest the server asks for ({@code Retry-After} on a failure; zero: none),
     *     so that no other request to the host starts while this one is still being read; or null
     * @param mayStart asked as the request is about to leave (see {@link StartCheck}); or null: it may
     * @throws NotSent when {@code mayStart} said no: nothing was sent
     */
    public FetchResult fetch(CrawlUrl url, Purpose purpose, @Nullable Consumer<Duration> onHeaders,
            @Nullable BooleanSupplier mayStart) throws InterruptedException, NotSent {
        return fetch(url, purpose, onHeaders, mayStart, null);
    }

    /** As {@link #fetch(CrawlUrl, Purpose, Consumer, BooleanSupplier)}, asking conditionally with {@code validators} (or not: null). */
    public FetchResult fetch(CrawlUrl url, Purpose purpose, @Nullable Consumer<Duration> onHeaders,
            @Nullable BooleanSupplier mayStart, @Nullable Validators validators) throws InterruptedException, NotSent {
        FetchResult result = fetchOnce(url, purpose, onHeaders, mayStart, validators);
        // A server that sets a cookie and sends the browser back to the same URL wants it asked again with it.
        if (settings.cookies() && result instanceof FetchResult.Response r && r.redirect()
                && r.headers().firstValue("Set-Cookie").isPresent()
                && r.location().map(location -> CrawlUrl.check(location, url.web())).orElse(null)
                        instanceof CrawlUrl.Check.Ok ok && ok.url().url().equals(url.url())) {
            return fetchOnce(url, purpose, onHeaders, mayStart, validators);
        }
        return result;
    }

    private FetchResult fetchOnce(CrawlUrl url, Purpose purpose, @Nullable Consumer<Duration> onHeaders,
            @Nullable BooleanSupplier mayStart, @Nullable Validators validators) throws InterruptedException, NotSent {
        long start = System.nanoTime();
        // Does the name exist at all? Asked before the client asks; see HostNames.
        String unknown = names.unknown(url.host());
        if (unknown != null) {
            return new FetchResult.Failed(FailureKind.CONNECT, unknown, System.nanoTime() - start, true);
        }
        if (!settings.refusePrivateAddresses()) {
            return exchange(url, purpose, onHeaders, mayStart, validators, start);
        }
        return AddressGuard.send(url.host(), () -> exchange(url, purpose, onHeaders, mayStart, validators, start),
                result -> result instanceof FetchResult.Failed,
                refused -> new FetchResult.Failed(FailureKind.CONNECT, refused, System.nanoTime() - start, true));
    }

    /**
     * The body as a stream ({@link Framing}); when the headers came, in {@code answeredAt}, taken on the client's
     * thread as they do (the request's thread takes its turn on a carrier after); the rest the server asks for
     * ({@code Retry-After}; zero: none) told as they come.
     */
    private static HttpResponse.BodyHandler<InputStream> handler(@Nullable Consumer<Duration> onHeaders,
            AtomicLong answeredAt) {
        return info -> {
            answeredAt.set(System.nanoTime());
            if (onHeaders != null) {
                onHeaders.accept(RetryPolicy.restAsked(info.statusCode(), info.headers()));
            }
            return Framing.body(info);
        };
    }

    private FetchResult exchange(CrawlUrl url, Purpose purpose, @Nullable Consumer<Duration> onHeaders,
            @Nullable BooleanSupplier mayStart, @Nullable Validators validators, long start)
            throws InterruptedException, NotSent {
        Deadlines.Watch watch = null;
        boolean audited = false;
        HttpResponse<InputStream> response = null;
        try {
            HttpClient client = CrawlHttpClients.forHost(clients, url.hostKey());
            AtomicLong answeredAt = new AtomicLong();
            HttpResponse.BodyHandler<InputStream> handler = handler(onHeaders, answeredAt);
            HttpRequest request = request(url, mayStart, validators);
            watch = deadlines.watch(System.nanoTime() + settings.requestTimeout().toNanos());
            audit.started(url);
            audited = true;
            try {
                response = send(client, request, handler, watch);
            } catch (NotSent e) {
                audited = false;
                audit.withdrawn(url);
                throw e;
            }
            long answerNanos = answeredAt.get() - start; // the handler has made the body: the headers came
            InputStream body = response.body();
            // A server dribbling bytes must not hold a host permit forever: the body is cut at the deadline.
            watch.reading(body, start + settings.fetchDeadline().toNanos());
            try (body) {
                return reader.read(response, body, start, answerNanos, purpose);
            } catch (IOException e) {
                if (watch.finish()) {
                    // The server is dribbling: asking again would only hold a permit as long again.
                    return new FetchResult.Failed(FailureKind.TIMEOUT, "body not complete within "
                            + settings.fetchDeadline().toMillis() + " ms", response.statusCode(), response.headers(), 0,
                            System.nanoTime() - start, answerNanos, null, true);
                }
                // counted as the exchange's failure, as before the headers; the words say how far it got
                return FetchResult.Failed.of(Failures.classify(e), "the body broke off (HTTP " + response.statusCode()
                        + " sent): " + Failures.describe(e), System.nanoTime() - start);
            }
        } catch (SSLHandshakeException e) {
            // Asking again gets the same certificate: permanent, so a host whose robots.txt cannot be had over
            // TLS is given up at once instead of being tried for --robots-retry-for.
            return new FetchResult.Failed(FailureKind.TLS, Failures.describeTls(e), System.nanoTime() - start, true);
        } catch (IOException e) {
            String detail = Failures.unresolved(e) ? "cannot resolve " + url.host() + " now (DNS did not answer)"
                    : Failures.describe(e, settings.proxy());
            return FetchResult.Failed.of(Failures.classify(e), detail, System.nanoTime() - start);
        } catch (IllegalArgumentException e) {
            // the JDK refuses some URLs our checks let through (an odd host the client cannot connect to)
            return new FetchResult.Failed(FailureKind.INVALID_URL, "the HTTP client refused the URL: " + e.getMessage(),
                    System.nanoTime() - start, true);
        } finally {
            if (watch != null) {
                watch.finish(); // on every path; a cut that came just as the read completed leaves a whole result
            }
            if (audited) { // once the body is read or cut: the server saw the request in flight until then
                audit.ended(url, response == null ? 0 : response.statusCode(), response == null ? 0
                        : RetryPolicy.restAsked(response.statusCode(), response.headers()).toNanos());
            }
        }
    }

    /**
     * {@link HttpClient#send}, its wait for the headers bounded by {@link Deadlines} (which interrupts it),
     * rather than by {@link HttpRequest.Builder#timeout} (the client keeps request timeouts in a list of its
     * own and wakes its selector thread for every one registered) or a timed wait on {@code sendAsync}'s
     * future (which wakes the scheduler's timer thread twice per request, and whose completion the client
     * passes through the common pool's thread first). An interrupted {@code send} aborts its exchange and
     * closes the connection, as the client's own timeout does.
     */
    private static HttpResponse<InputStream> send(HttpClient client, HttpRequest request,
            HttpResponse.BodyHandler<InputStream> handler, Deadlines.Watch watch)
            throws IOException, InterruptedException, NotSent {
        try {
            return client.send(request, handler);
        } catch (Refused e) { // should the client ever ask the body's length on this thread and not catch it
            throw new NotSent();
        } catch (InterruptedException | IOException e) {
            // An interrupt of ours may also come as an IOException: one that finds the client writing to its
            // channel closes the channel (ClosedByInterruptException).
            if (watch.headersLate()) {
                throw new HttpTimeoutException("request timed out");
            }
            // send() rethrows a failure as a copy of its class (the class is what classify() reads), the
            // original as its cause; a start check's refusal comes as a plain IOException around it.
            if (e.getCause() instanceof Refused) {
                throw new NotSent();
            }
            throw e;
        }
    }

    /**
     * Ends the client without waiting: {@code HttpClient.close()} (and even {@code awaitTermination} after
     * {@code shutdownNow()}) waits for exchanges still running, such as a body the deadline already cut
     * that the server goes on dribbling until it is done. Nothing more is wanted from them; their
     * connections close when their servers stop.
     */
    @Override
    public void close() {
        for (HttpClient client : clients) {
            client.shutdownNow();
        }
    }
}
