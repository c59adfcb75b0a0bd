package dev.loomcrawl.crawler.revisit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.testkit.Certificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** A webhook receiver on loopback that checks each delivery's signature and keeps what it took. */
final class WebhookReceiver implements AutoCloseable {
    static final String SECRET = "s3cret";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final String scheme;
    /** Every delivery taken (answered 2xx), as received. */
    final ConcurrentLinkedQueue<JsonNode> received = new ConcurrentLinkedQueue<>();
    final AtomicInteger badSignatures = new AtomicInteger();
    /** The receiver answers 500 to this many deliveries first. */
    final AtomicInteger failFirst = new AtomicInteger();
    /** The {@code Retry-After} those answers carry, or null: none. */
    volatile @Nullable String retryAfter;
    /** When each delivery came ({@link System#nanoTime}), taken or not. */
    final ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();

    WebhookReceiver() throws IOException {
        this(null);
    }

    /** A receiver over https showing {@code certificate}, or over plain http when it is null. */
    WebhookReceiver(Certificates.@Nullable Certificate certificate) throws IOException {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (certificate == null) {
            server = HttpServer.create(loopback, 0);
        } else {
            HttpsServer https = HttpsServer.create(loopback, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(certificate.serverContext()));
            server = https;
        }
        scheme = certificate == null ? "http" : "https";
        server.createContext("/hook", exchange -> {
            arrivals.add(System.nanoTime());
            byte[] body = exchange.getRequestBody().readAllBytes();
            String signature = exchange.getRequestHeaders().getFirst(Freshness.Webhook.SIGNATURE);
            if (!Freshness.Webhook.sign(SECRET, body).equals(signature)) {
                badSignatures.incrementAndGet();
            }
            int status = failFirst.getAndDecrement() > 0 ? 500 : 204;
            if (status == 204) {
                received.add(JSON.readTree(body));
            } else if (retryAfter != null) {
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    /** The ids of the events taken, in the order they came. */
    List<Long> ids() {
        return received.stream().map(e -> e.get("id").asLong()).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
