package dev.loomcrawl.mocksites;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;

/**
 * A server on one loopback address that counts what it receives, as a server operator would: requests in flight
 * at once (from arrival until the answer starts), requests per {@code Host} name, each request's time,
 * and when the last one arrived. It serves, for any name, a binary tree of {@code pages} pages per name
 * ({@code /p/i} links {@code /p/2i+1} and {@code /p/2i+2}) and 404 for {@code /robots.txt}. How long it takes is
 * a function of how many requests are in flight when one arrives: a server that slows down under load.
 */
public final class CountingServer implements AutoCloseable {
    private final HttpServer server;
    private final int pages;
    private final IntUnaryOperator latencyMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    public final AtomicInteger total = new AtomicInteger();
    public final AtomicLong lastArrivalNanos = new AtomicLong();
    public final Map<String, AtomicInteger> byName = new ConcurrentHashMap<>();
    /** Each answered request's time in the server, in ms. */
    public final List<Long> millis = Collections.synchronizedList(new ArrayList<>());
    /**
     * Each request's time as the latency function set it, in ms: its time in the server had the machine been
     * idle. On a busy machine a sleep overruns, and {@link #millis} counts that as the server's time.
     */
    private final List<Long> modelled = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param address a loopback address, {@code 127.0.0.N}
     * @param latencyMillis how long a request takes, given the requests in flight when it arrived (itself included)
     */
    public CountingServer(String address, int pages, IntUnaryOperator latencyMillis) throws IOException {
        this.pages = pages;
        this.latencyMillis = latencyMillis;
        server = HttpServer.create(new InetSocketAddress(address, 0), 200);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long start = System.nanoTime();
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        total.incrementAndGet();
        lastArrivalNanos.set(start);
        boolean answering = false;
        String host = exchange.getRequestHeaders().getFirst("Host");
        byName.computeIfAbsent(host == null ? "" : host.replaceFirst(":\\d+$", ""), k -> new AtomicInteger()).incrementAndGet();
        try (exchange) {
            int latency = latencyMillis.applyAsInt(now);
            modelled.add((long) latency);
            Thread.sleep(latency); // the server's own time: what the test is about
            String path = exchange.getRequestURI().getPath();
            int page = path.startsWith("/p/") ? Integer.parseInt(path.substring(3)) : -1;
            if (page < 0 || page >= pages) {
                answering = answered(start);
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            StringBuilder html = new StringBuilder("<html><head><title>Page ").append(page).append("</title></head><body>");
            for (int child : new int[] {2 * page + 1, 2 * page + 2}) {
                if (child < pages) {
                    html.append("<a href=\"/p/").append(child).append("\">child</a> ");
                }
            }
            byte[] body = html.append("</body></html>").toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            answering = answered(start);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!answering) {
                answered(start);
            }
        }
    }

    /**
     * The request is answered from now on: out of the count before its first byte leaves, so that a client
     * that sends its next request as soon as it has this answer is never counted twice.
     */
    private boolean answered(long start) {
        millis.add((System.nanoTime() - start) / 1_000_000);
        inFlight.decrementAndGet();
        return true;
    }

    /** The {@code q}-quantile of the requests' times in the server, in ms. */
    public long quantileMillis(double q) {
        return quantile(millis, q);
    }

    /** The {@code q}-quantile of the requests' times as the latency function set them (see {@link #modelled}), in ms. */
    public long modelledQuantileMillis(double q) {
        return quantile(modelled, q);
    }

    private static long quantile(List<Long> values, double q) {
        List<Long> sorted;
        synchronized (values) {
            sorted = new ArrayList<>(values);
        }
        Collections.sort(sorted);
        return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
    }

    /** The share of the requests that took longer than {@code limit} ms in the server. */
    public double shareOver(long limit) {
        return share(millis, limit);
    }

    /** The share of the requests whose time as the latency function set it was longer than {@code limit} ms. */
    public double modelledShareOver(long limit) {
        return share(modelled, limit);
    }

    private static double share(List<Long> values, long limit) {
        synchronized (values) {
            return values.isEmpty() ? 0 : (double) values.stream().filter(m -> m > limit).count() / values.size();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
