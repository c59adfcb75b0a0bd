package dev.loomcrawl.bench;

import dev.loomcrawl.crawler.fetch.CrawlHttpClients;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.TlsTrust;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fetches of a farm's crawl and nothing else, for {@code bench --cold --floor}: per seed host, robots.txt,
 * then the seed, then the host's other pages at most {@code perHost} at a time, one virtual thread per request,
 * on the crawler's own {@code java.net.http} clients ({@link CrawlHttpClients}: made and sharded by host as a
 * crawl's are), each body read to its end and dropped. No parsing, no storing,
 * no robots rules, no frontier, no fetch limit: run as a JVM process of its own under the crawl's options, it
 * is what the same requests take made the plainest way on this machine, JVM start and JIT included. Beside the
 * ideal, which no crawler can go below, it says how much of a crawl's time is the crawler's own.
 *
 * <p>The farm's own URLs are fetched, not links found: every page of every host, so it is comparable with a
 * crawl deep enough to reach them all, on a farm without faults (the bench checks both).
 */
public final class FetchFloor {
    /** Page requests answered 2xx (the seeds' among them), robots.txt requests answered 2xx, and the rest. */
    record Tally(long pages, long robots, long failed) {}

    private FetchFloor() {}

    /** {@code FetchFloor SEEDS_FILE PAGES_PER_HOST PER_HOST}: prints its {@link Tally} as one JSON line. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: FetchFloor SEEDS_FILE PAGES_PER_HOST PER_HOST");
            System.exit(2);
        }
        List<String> seeds = Files.readAllLines(Path.of(args[0])).stream().map(String::strip)
                .filter(s -> !s.isEmpty()).toList();
        Tally t = fetchAll(seeds, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        System.out.printf("{\"pages\":%d,\"robots\":%d,\"failed\":%d}%n", t.pages(), t.robots(), t.failed());
        System.exit(t.failed() == 0 ? 0 : 1);
    }

    static Tally fetchAll(List<String> seeds, int pagesPerHost, int perHost) throws InterruptedException {
        HttpClient[] clients = CrawlHttpClients.open(CrawlConfig.DEFAULT_CONNECT_TIMEOUT, null, TlsTrust.JDK, null); // the crawler's own
        AtomicLong pages = new AtomicLong();
        AtomicLong robots = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        try (ExecutorService hosts = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String seed : seeds) {
                URI root = URI.create(seed);
                HttpClient client = CrawlHttpClients.forHost(clients, root.getAuthority()); // the farm's URLs name their port
                hosts.execute(() -> {
                    count(get(client, root.resolve("/robots.txt")), robots, failed);
                    count(get(client, root), pages, failed);
                    Semaphore permits = new Semaphore(perHost); // the politeness limit, as a crawl's host permits
                    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
                        for (int p = 1; p < pagesPerHost; p++) {
                            URI page = root.resolve(SiteGraph.pagePath(p));
                            permits.acquireUninterruptibly();
                            requests.execute(() -> {
                                try {
                                    count(get(client, page), pages, failed);
                                } finally {
                                    permits.release(); // the request is over, answered or not
                                }
                            });
                        }
                    }
                });
            }
        } finally {
            for (HttpClient c : clients) {
                c.close();
            }
        }
        return new Tally(pages.get(), robots.get(), failed.get());
    }

    private static void count(boolean answered, AtomicLong ok, AtomicLong failed) {
        (answered ? ok : failed).incrementAndGet();
    }

    /** Whether the server answered 2xx; the body is read to its end (as a crawl reads it) and dropped. */
    private static boolean get(HttpClient client, URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri).header("User-Agent", "loomcrawl-floor").build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                body.readAllBytes();
            }
            return response.statusCode() / 100 == 2;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
