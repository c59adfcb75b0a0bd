package dev.loomcrawl.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The one HTTP helper every module's tests use: a request to a server on loopback, its answer with the
 * body parsed when it is JSON. Real HTTP through the JDK client, never a mock.
 */
public final class Http implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An answer: status, JSON body when there is one, the text, and the raw response for headers. */
    public record Response(int status, JsonNode json, String text, HttpResponse<String> raw) {
        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private volatile java.util.function.BiConsumer<HttpRequest, Response> observer = (request, response) -> { };

    /** Every exchange from now on also goes to {@code observer} (a contract check, say). */
    public Http observe(java.util.function.BiConsumer<HttpRequest, Response> value) {
        this.observer = value;
        return this;
    }

    /** @param base {@code http://127.0.0.1:PORT} */
    public Http(String base) {
        this.base = base;
    }

    public static Http local(int port) {
        return new Http("http://127.0.0.1:" + port);
    }

    public Response get(String path, String... headers) {
        return call("GET", path, null, headers);
    }

    public Response post(String path, String json, String... headers) {
        return call("POST", path, json, headers);
    }

    public Response delete(String path, String... headers) {
        return call("DELETE", path, null, headers);
    }

    /**
     * @param body sent as {@code application/json} when not null
     * @param headers name, value, name, value ...
     */
    public Response call(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.setHeader(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    /** Sends a request built by the test itself (odd bodies, odd headers). */
    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json") && !r.body().isEmpty()) {
                json = JSON.readTree(r.body());
            }
            Response response = new Response(r.statusCode(), json, r.body(), r);
            observer.accept(request, response);
            return response;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A GET's body as bytes, for what is not text (an archive); fails on any status but 200. */
    public byte[] bytes(String path) {
        try {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + path + " answered " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public String base() {
        return base;
    }

    @Override
    public void close() {
        client.close();
    }
}
