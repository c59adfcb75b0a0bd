package dev.loomcrawl.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP forward proxy on a free loopback port that asks for a password (Basic), as a company's proxy does:
 * plain requests in absolute form are passed on, {@code CONNECT} opens a tunnel. It keeps each request line
 * with whether its credentials were right, so a test can see that everything went through it.
 */
public final class TestProxy implements AutoCloseable {
    /** One request as the proxy took it: {@code GET http://host:port/path} or {@code CONNECT host:port}. */
    public record Seen(String requestLine, boolean authorized) {}

    private final ServerSocket server;
    private final String expected;
    private final Thread acceptor;
    public final List<Seen> seen = new CopyOnWriteArrayList<>();

    public TestProxy(String user, String password) throws IOException {
        this.expected = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.acceptor = Thread.ofVirtual().start(this::accept);
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            String head = readHead(in);
            if (head == null) {
                return;
            }
            String[] lines = head.split("\r\n");
            String requestLine = lines[0];
            boolean authorized = false;
            for (String line : lines) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("proxy-authorization")) {
                    authorized = line.substring(colon + 1).strip().equals(expected);
                }
            }
            seen.add(new Seen(requestLine, authorized));
            OutputStream out = client.getOutputStream();
            if (!authorized) {
                out.write(("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                return;
            }
            String[] parts = requestLine.split(" ");
            if (parts[0].equals("CONNECT")) {
                String[] hostPort = parts[1].split(":");
                try (Socket upstream = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
                    out.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    tunnel(client, upstream);
                }
                return;
            }
            URI target = URI.create(parts[1]);
            String path = target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
            // One request per connection, so that each is seen here: the server is asked to close after it.
            StringBuilder forwarded = new StringBuilder(parts[0] + " " + path + " " + parts[2] + "\r\n");
            for (int i = 1; i < lines.length; i++) {
                String name = lines[i].toLowerCase(Locale.ROOT);
                if (!name.startsWith("proxy-") && !name.startsWith("connection:")) {
                    forwarded.append(lines[i]).append("\r\n");
                }
            }
            try (Socket upstream = new Socket(target.getHost(), target.getPort())) {
                upstream.getOutputStream().write(forwarded.append("Connection: close\r\n\r\n").toString()
                        .getBytes(StandardCharsets.ISO_8859_1));
                upstream.getInputStream().transferTo(out);
            }
        } catch (IOException e) {
            // the client or the server went away: this connection ends
        }
    }

    /** Copies both ways until either side is done. */
    private static void tunnel(Socket client, Socket upstream) throws IOException {
        Thread up = Thread.ofVirtual().start(() -> {
            try {
                client.getInputStream().transferTo(upstream.getOutputStream());
                upstream.shutdownOutput();
            } catch (IOException e) {
                // either side closed
            }
        });
        upstream.getInputStream().transferTo(client.getOutputStream());
        client.shutdownOutput();
        up.interrupt();
    }

    /** The request head, up to its blank line, or null if the connection ended first. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                return head.substring(0, head.length() - 4);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }
}
