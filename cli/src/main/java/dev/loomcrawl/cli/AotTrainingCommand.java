package dev.loomcrawl.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/**
 * {@code loomcrawl aot-training} (hidden): the workload the launcher runs once per build, under
 * {@code -XX:AOTCacheOutput}, so that the JVM records the classes a crawl loads and links. Two crawls of a small
 * site this process serves on loopback, one printing JSON, one printing progress and a table, the two ways
 * people run {@code crawl}. The site answers at once: the cache needs the crawl's classes, not its waits, so
 * the training takes about a second beside the JVM's start and the cache's writing.
 */
@Command(name = "aot-training", hidden = true,
        description = "Crawl a small local site briefly, for the launcher's start-up cache.")
final class AotTrainingCommand implements Callable<Integer> {
    /** The site's pages: each links to the next few, so a crawl of depth 2 finds a dozen and more. */
    private static final int PAGES = 40;

    @Override
    public Integer call() throws IOException {
        Path dir = Files.createTempDirectory("loomcrawl-aot-training");
        HttpServer site = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        site.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        site.createContext("/", AotTrainingCommand::answer);
        site.start();
        try {
            String seed = "http://127.0.0.1:" + site.getAddress().getPort() + "/p/0";
            PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
            List<String> outputs = List.of("--json", "--per-host=8"); // the second: a table and progress
            for (int i = 0; i < outputs.size(); i++) {
                // its own loopback site: never through a proxy the user's environment names
                String[] args = {"crawl", seed, "--max-depth=2", outputs.get(i), "--db=jdbc:h2:" + dir.resolve("db" + i),
                    "--proxy="};
                int code = Main.run(args, nowhere, nowhere);
                if (code != 0) {
                    throw new IllegalStateException("the training crawl (" + String.join(" ", args) + ") exited with "
                            + code);
                }
            }
            return 0;
        } finally {
            site.stop(0);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** robots.txt, the pages /p/0 to /p/39, a redirect to the first, and 404 for the rest. */
    private static void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        int page = path.matches("/p/\\d{1,3}") ? Integer.parseInt(path.substring(3)) : PAGES;
        int status = 200;
        String type = "text/html; charset=utf-8";
        String body = "";
        if (path.equals("/robots.txt")) {
            type = "text/plain";
            body = "User-agent: *\nDisallow: /private/\n";
        } else if (path.equals("/moved")) {
            status = 301;
            exchange.getResponseHeaders().set("Location", "/p/0");
        } else if (page < PAGES) {
            body = page(page);
        } else {
            status = 404;
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String page(int n) {
        StringBuilder html = new StringBuilder("<!doctype html><html lang=en><head><title>Page ").append(n)
                .append("</title><meta name=description content=\"A page of the training site\"></head><body><main>")
                .append("<h1>Page ").append(n).append("</h1><p>Some text with <em>words</em> in it.</p><ul>");
        for (int i = 1; i <= 5; i++) {
            html.append("<li><a href=\"/p/").append((n + i) % PAGES).append("\">next ").append(i).append("</a>");
        }
        return html.append("</ul><a href=/moved>back</a> <a href=/private/x>private</a> <a href=/gone>gone</a>")
                .append("</main></body></html>").toString();
    }
}
