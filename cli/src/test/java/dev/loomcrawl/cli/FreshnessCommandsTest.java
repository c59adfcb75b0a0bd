package dev.loomcrawl.cli;

import static dev.loomcrawl.cli.CrawlCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.testkit.TestSite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** recrawl, export --changes and --near-duplicates, --skip-near-duplicates, and their bad input, as a user types them. */
class FreshnessCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STORY = "<p>The river rose through the night and by morning the lower town was under"
            + " water. Volunteers carried sandbags to the bridge while the council met in the school hall to decide"
            + " whether the old mill should open as a shelter for the families who had lost their homes.</p>";

    private static List<JsonNode> jsonLines(String text) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        for (String line : text.strip().lines().toList()) {
            rows.add(JSON.readTree(line));
        }
        return rows;
    }

    private static void site(TestSite site) {
        site.stub("/", TestSite.html("<a href=/story>s</a><a href=/story-print>p</a><a href=/news>n</a>"));
        site.stub("/story", TestSite.html("<title>story</title>" + STORY + "<p>1204 readers</p>"));
        site.stub("/story-print", TestSite.html("<title>story (print)</title>" + STORY + "<p>1207 readers</p>"
                + "<a href=/only-from-print>more</a>"));
        site.stub("/only-from-print", TestSite.html("<p>reached from the print version only</p>"));
        site.stub("/news", TestSite.html("<p>Nothing happened today, and the weather stayed as it was all week.</p>"));
    }

    @Test
    void recrawlThenExportTheChangesAndTheNearDuplicates(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite()) {
            site(site);
            String db = "--db=jdbc:h2:" + dir.resolve("db");
            assertThat(run("crawl", "--quiet", "--ignore-robots", db, site.url("/")).exit()).isZero();
            site.stub("/news", TestSite.html("<p>The election is over: the new council meets on Monday to choose a"
                    + " mayor, and the old one has already cleared his desk.</p>"));

            CrawlCommandTest.Result recrawl = run("recrawl", "1", "--quiet", db);
            assertThat(recrawl.exit()).as(recrawl.err()).isZero();
            CrawlCommandTest.Result changes = run("export", "1", "--changes", db);
            assertThat(changes.exit()).as(changes.err()).isZero();
            Map<String, String> kinds = jsonLines(changes.out()).stream().collect(Collectors.toMap(
                    e -> e.get("url").asText().replace(site.url(""), ""), e -> e.get("kind").asText()));
            assertThat(kinds).containsEntry("/news", "changed").containsEntry("/story", "unchanged")
                    .containsEntry("/", "unchanged").hasSize(5);
            CrawlCommandTest.Result csv = run("export", "1", "--changes", "--format=csv", db);
            assertThat(csv.out().lines().findFirst().orElseThrow())
                    .isEqualTo("id,job,url,kind,at,status,distance,severity,target");

            CrawlCommandTest.Result near = run("export", "1", "--near-duplicates", db);
            assertThat(near.exit()).as(near.err()).isZero();
            List<JsonNode> group = jsonLines(near.out());
            assertThat(group).extracting(r -> r.get("url").asText().replace(site.url(""), ""))
                    .containsExactlyInAnyOrder("/story", "/story-print"); // in the order they were stored
            assertThat(group).allSatisfy(r -> assertThat(r.get("group").asInt()).isEqualTo(1));
        }
    }

    @Test
    void skippingNearDuplicatesLeavesTheirLinksUnfollowed(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite()) {
            site(site);
            String db = "--db=jdbc:h2:" + dir.resolve("db");
            assertThat(run("crawl", "--quiet", "--ignore-robots", "--per-host=1", "--skip-near-duplicates", db,
                    site.url("/")).exit()).isZero();
            List<String> urls = jsonLines(run("export", "1", db).out()).stream()
                    .map(r -> r.get("url").asText().replace(site.url(""), "")).toList();
            // One host, one request at a time, links in page order: the story comes first, its print version is
            // the near-duplicate, stored, its links not followed.
            assertThat(urls).contains("/story", "/story-print").doesNotContain("/only-from-print");
            assertThat(site.counter.requests("/only-from-print")).isZero();
            JsonNode print = jsonLines(run("export", "1", db).out()).stream()
                    .filter(r -> r.get("url").asText().endsWith("/story-print")).findFirst().orElseThrow();
            assertThat(print.get("detail").asText()).isEqualTo("near-duplicate of " + site.url("/story")
                    + ": links not followed");

            // Without the flag the same crawl follows them.
            assertThat(run("crawl", "--quiet", "--ignore-robots", "--per-host=1", db, site.url("/")).exit()).isZero();
            assertThat(jsonLines(run("export", "2", db).out())).extracting(r -> r.get("url").asText())
                    .contains(site.url("/only-from-print"));
        }
    }

    @Test
    void badFreshnessInputIsOneLineAndExitCodeTwo(@TempDir Path dir) {
        String db = "--db=jdbc:h2:" + dir.resolve("db");
        for (String[] args : List.of(
                new String[] {"crawl", "--revisit-min=soon", db, "http://127.0.0.1:9/"},
                new String[] {"crawl", "--revisit-min=10m", "--revisit-max=1m", db, "http://127.0.0.1:9/"},
                new String[] {"crawl", "--webhook-url=http://127.0.0.1:9/", db, "http://127.0.0.1:9/"},
                new String[] {"crawl", "--webhook-url=http://127.0.0.1:9/", "--webhook-secret=s", db, "http://127.0.0.1:9/"},
                new String[] {"recrawl", "99", db},
                new String[] {"export", "1", "--changes", "--links", db})) {
            CrawlCommandTest.Result r = run(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        }
        assertThat(run("crawl", "--revisit-min=soon", db, "http://127.0.0.1:9/").err()).contains("--revisit-min");
        assertThat(run("crawl", "--revisit-min=10m", "--revisit-max=1m", db, "http://127.0.0.1:9/").err())
                .contains("--revisit-max must be at least the minimum, 10 min, and at most 365 days, was 1 min");
        assertThat(run("crawl", "--webhook-url=http://127.0.0.1:9/", "--webhook-secret=s", db, "http://127.0.0.1:9/")
                .err()).contains("--webhook-url/--webhook-secret sends change events, and only a job that revisits");
    }
}
