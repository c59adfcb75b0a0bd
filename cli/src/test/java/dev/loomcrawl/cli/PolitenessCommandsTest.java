package dev.loomcrawl.cli;

import static dev.loomcrawl.cli.CrawlCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.mocksites.CountingServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --politeness-key, --no-adaptive-politeness and export --politeness, as a user types them. */
class PolitenessCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCrawlByAddressThenItsAuditAsJsonLinesAndCsv(@TempDir Path dir) throws Exception {
        try (CountingServer site = new CountingServer("127.0.0.1", 63, inFlight -> 10)) {
            String db = "--db=jdbc:h2:" + dir.resolve("db");
            CrawlCommandTest.Result crawl = run("crawl", "--quiet", "--politeness-key=ip", "--per-host=3",
                    "--max-depth=10", db, "http://127.0.0.1:" + site.port() + "/p/0");
            assertThat(crawl.exit()).as(crawl.err()).isZero();

            CrawlCommandTest.Result audit = run("export", "1", "--politeness", db);
            assertThat(audit.exit()).as(audit.err()).isZero();
            JsonNode key = JSON.readTree(audit.out().strip().lines().findFirst().orElseThrow());
            assertThat(key.get("key").asText()).isEqualTo("127.0.0.1"); // the address, not host:port
            assertThat(key.get("requests").asLong()).isEqualTo(site.total.get());
            assertThat(key.get("maxInFlight").asInt()).isBetween(1, 3);
            assertThat(site.maxInFlight.get()).isLessThanOrEqualTo(3);

            CrawlCommandTest.Result csv = run("export", "1", "--politeness", "--format=csv", db);
            assertThat(csv.out().lines().findFirst().orElseThrow()).startsWith("key,requests,answered,errors,maxInFlight,");
        }
    }

    @Test
    void aBadKeyIsOneLineAndExitTwo(@TempDir Path dir) {
        CrawlCommandTest.Result bad = run("crawl", "--politeness-key=server", "--db=jdbc:h2:" + dir.resolve("db"),
                "http://127.0.0.1:1/");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().strip().lines()).hasSize(1);
        assertThat(bad.err()).contains("--politeness-key").contains("host, domain or ip");

        CrawlCommandTest.Result two = run("export", "1", "--politeness", "--changes", "--db=jdbc:h2:" + dir.resolve("db"));
        assertThat(two.exit()).isEqualTo(2);
    }
}
