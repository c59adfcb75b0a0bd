package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A response whose length is given two ways, {@code Transfer-Encoding: chunked} and {@code Content-Length}, made by
 * hand on a socket (WireMock's Jetty sends one or the other). Its chunks' end comes only with the next request on
 * its connection, as a server that writes in two steps sends it: read by its {@code Content-Length}, as the JDK's
 * client reads it, the page was a chunk size and a cut body, and the chunks' end failed the next URL asked on that
 * connection ("Invalid status line").
 */
class FramingTest {
    private static final String PAGE = "<html><title>t</title><body>a page read whole</body></html>";

    private ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private Deadlines deadlines;
    private Fetcher fetcher;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (true) {
                try {
                    Socket socket = server.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(socket));
                } catch (IOException e) {
                    return; // closed
                }
            }
        });
        deadlines = new Deadlines();
        fetcher = new Fetcher(FetchSettings.of(CrawlConfig.builder().seed(url("/")).build(), null, TlsTrust.JDK),
                HostNames.JVM, deadlines);
    }

    @AfterEach
    void stop() throws IOException {
        fetcher.close();
        deadlines.close();
        server.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    /** Each request on the connection: {@code /two-ways} framed both ways, its chunks' end before the next answer. */
    private static void serve(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            String pending = "";
            for (String path; (path = requestPath(in)) != null; ) {
                byte[] body = PAGE.getBytes(StandardCharsets.US_ASCII);
                String answer = path.equals("/two-ways")
                        ? "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n"
                                + "Content-Length: 10\r\n\r\n" + Integer.toHexString(body.length) + "\r\n" + PAGE + "\r\n"
                        : "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + body.length + "\r\n\r\n"
                                + PAGE;
                out.write((pending + answer).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                pending = path.equals("/two-ways") ? "0\r\n\r\n" : "";
            }
        } catch (IOException e) {
            // the client closed the connection
        }
    }

    /** The next request's path, its head read whole; null at the connection's end. */
    private static String requestPath(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.append((char) b);
        }
        return head.toString().split(" ", 3)[1];
    }

    @Test
    void aBodyFramedTwoWaysFailsAloneAndItsConnectionIsClosed() throws Exception {
        FetchResult twoWays = fetcher.fetch(CrawlUrl.of(url("/two-ways")), Fetcher.Purpose.PAGE);
        FetchResult next = fetcher.fetch(CrawlUrl.of(url("/next")), Fetcher.Purpose.PAGE);

        assertThat(twoWays).isInstanceOfSatisfying(FetchResult.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(FailureKind.PROTOCOL);
            assertThat(f.status()).isEqualTo(200);
            assertThat(f.permanent()).isTrue(); // the server answers the same way again
            assertThat(f.detail()).contains("Transfer-Encoding and Content-Length");
        });
        assertThat(next).isInstanceOfSatisfying(FetchResult.Response.class,
                r -> assertThat(new String(r.body(), StandardCharsets.US_ASCII)).isEqualTo(PAGE));
        assertThat(connections).hasValue(2);
    }
}
