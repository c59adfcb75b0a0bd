package dev.loomcrawl.crawler.fetch;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The {@code java.net.http} clients a crawl fetches with, made in one place: for the crawler's {@code Fetcher}, and
 * for what must fetch as a crawl does and be compared with it (the bench's floor, {@code bench --cold --floor}).
 */
public final class CrawlHttpClients {
    private CrawlHttpClients() {}

    /**
     * One client per core, four at most: each has one selector
     * thread for all its connections, and one connection pool whose expiry list grows with what it holds; a few
     * clients spread both over the cores.
     */
    public static HttpClient[] open(Duration connectTimeout) {
        HttpClient[] clients = new HttpClient[Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()))];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = newClient(connectTimeout);
        }
        return clients;
    }

    /** The client of the host {@code hostKey} ({@code host:port}): always the same one, so its connections share a pool. */
    public static HttpClient forHost(HttpClient[] clients, String hostKey) {
        return clients[Math.floorMod(hostKey.hashCode(), clients.length)];
    }

    /** A client on the JDK's default TLS context (its trust store, protocols and cipher suites). */
    static HttpClient newClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                // HTTP/1.1 only: the default h2c upgrade fails with "too many concurrent streams" under load.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER) // each hop is a new URL for the frontier
                .connectTimeout(connectTimeout)
                // The client hands the work that follows each read (parsing the response head, completing
                // the sender's future, passing body bytes on) from its selector thread to this executor.
                // Run there: a new virtual thread per hand-off, several per request, cost more than the
                // work, which is short and never blocks (the body handler only notes a Retry-After).
                // A cold wide crawl: -5% CPU, -10% wall; no thread is added in either mode.
                .executor(Runnable::run)
                .build();
    }
}
