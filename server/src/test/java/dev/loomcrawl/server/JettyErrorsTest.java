package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.testkit.Http;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Jetty answers itself, before any route: requests its HTTP parser refuses and paths it will not route, in
 * the API's JSON error shape. Raw bytes over a socket, as no HTTP client library would send them.
 */
class JettyErrorsTest {
    private final TestServer app = new TestServer();
    private final ApiServer server = app.server;
    private final Http http = app.http;

    @AfterEach
    void stop() {
        app.close();
    }

    /**
     * What Jetty answers before any route (bad paths, a URI too long) comes in the API's JSON error shape. Sent
     * whole over a socket and read to its end: Jetty answers such a request before reading its body and closes,
     * and what is checked is the bytes it writes, not how an HTTP client copes with an answer to a request it is
     * still sending.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/crawl/%00", "/assets/../..", "/assets/%2e%2e/%2e%2e/etc/passwd", "/crawl/a%2fb/../../x",
            "LONG"})
    void jettysOwnErrorsAreJson(String path) throws Exception {
        String target = path.equals("LONG") ? "/crawl/" + "a".repeat(20_000) : path;
        for (String method : List.of("GET", "PUT")) { // Jetty writes no body for a PUT unless told to
            String answer = exchange(method + " " + target
                    + " HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", false);
            assertThat(answer).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
            assertThat(answer.toLowerCase(Locale.ROOT)).contains("content-type: application/json");
            JsonNode body = Http.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertThat(body.get("error").asText()).isNotBlank();
            assertThat(body.get("message").asText()).isNotBlank().doesNotContain("<");
        }
        assertThat(http.get("/health").status()).isEqualTo(200); // and the server answers on
    }

    /** Requests no HTTP client library sends: a path Jetty refuses ({@code [::1]}, {@code %ff}), a body cut short. */
    @ParameterizedTest
    @ValueSource(strings = {
        "PUT /hosts/[::1] HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"limit\": 2}",
        "PUT /hosts/%ff HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"limit\": 2}",
        "PUT /hosts/a.test:80 HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"limit\":"})
    void malformedRequestsAre400WithAJsonBody(String request) throws Exception {
        // a body shorter than its Content-Length: the client says it has nothing more
        String answer = exchange(request, true);
        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(answer.toLowerCase(Locale.ROOT)).contains("content-type: application/json");
        JsonNode body = Http.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(body.get("error").asText()).isEqualTo("bad_request");
        assertThat(body.get("message").asText()).isNotBlank();
        assertThat(http.get("/hosts").json().get("settings").size()).isZero(); // nothing was stored
    }

    /**
     * What Jetty's HTTP parser refuses, before any request exists (a header too large, a version it does not speak,
     * a bad {@code Content-Length}, a TLS hello on the plain port), is answered in the API's JSON error shape too.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            431 | GET /health HTTP/1.1~X-Big: BIG~~
            505 | GET /health HTTP/9.9~~
            400 | POST /crawl HTTP/1.1~Content-Type: application/json~Content-Length: +2~~{}
            400 | TLS~~
            """)
    void parserRefusalsAreJson(int status, String request) throws Exception {
        // ~ is a line's end; a TLS client's first bytes (a handshake record) where a request line should be
        String raw = request.replace("~", "\r\n").replace("BIG", "a".repeat(20_000))
                .replace("TLS", "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001");
        String answer = exchange(raw, false);
        assertThat(answer).startsWith("HTTP/1.1 " + status);
        assertThat(answer.toLowerCase(Locale.ROOT)).contains("content-type: application/json");
        JsonNode body = Http.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(body.get("error").asText()).isNotBlank();
        assertThat(body.get("message").asText()).isNotBlank();
        assertThat(http.get("/health").status()).isEqualTo(200); // and the server answers on
    }

    /**
     * One request written whole to a new connection, with {@code Host} and {@code Connection: close} added after
     * its first line, and everything the server writes until it closes.
     *
     * @param endOutput whether to say at once that nothing more comes (a body cut short)
     */
    private String exchange(String request, boolean endOutput) throws Exception {
        String whole = request.replaceFirst("\r\n", "\r\nHost: 127.0.0.1:" + server.port()
                + "\r\nConnection: close\r\n");
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(whole.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            if (endOutput) {
                socket.shutdownOutput();
            }
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

}
