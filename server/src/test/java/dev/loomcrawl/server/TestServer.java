package dev.loomcrawl.server;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.testkit.Http;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real service for one test: a fresh in-memory H2, its crawler, the API on port 0, and a client whose every
 * exchange is checked against the OpenAPI document; closing it closes them all and asserts that contract.
 */
final class TestServer implements AutoCloseable {
    private static final AtomicLong DB = new AtomicLong();

    final String url = "jdbc:h2:mem:server" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    final Database store = Database.open(url);
    final Crawler crawler = new Crawler(store);
    final ApiServer server;
    private final Contract contract = new Contract();
    final Http http;

    /** A loopback server with the defaults. */
    TestServer() {
        this(ApiServer.Settings.local(0, ExecutionMode.VIRTUAL, 50));
    }

    TestServer(ApiServer.Settings settings) {
        server = ApiServer.start(settings, crawler);
        http = Http.local(server.port()).observe(contract::check);
    }

    @Override
    public void close() {
        server.close();
        crawler.close();
        store.close();
        http.close();
        contract.assertHeld(); // every answer the test read matched the OpenAPI document
    }
}
