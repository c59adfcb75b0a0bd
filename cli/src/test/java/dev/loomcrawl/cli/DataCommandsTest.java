package dev.loomcrawl.cli;

import static dev.loomcrawl.cli.CrawlCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.bench.ChildProcess;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.TestSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/** Data out of the command line: --output, --extract, --warc, jobs, export, resume, Ctrl-C. */
class DataCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static MockSites farm;

    @BeforeAll
    static void startFarm() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(10, 10).withLatency(LatencyModel.fixed(100)));
    }

    @AfterAll
    static void stopFarm() {
        farm.close();
    }

    @BeforeEach
    void reset() {
        farm.reset();
    }

    private String depth() {
        return "--max-depth=" + (farm.graph().maxDepth() + 1);
    }

    /** Every host's root, as a --seeds-file flag. */
    private static String seeds(Path dir) throws java.io.IOException {
        return "--seeds-file=" + Files.write(dir.resolve("seeds.txt"), farm.seedUrls());
    }

    private static List<JsonNode> jsonLines(String text) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        for (String line : text.strip().lines().toList()) {
            rows.add(JSON.readTree(line));
        }
        return rows;
    }

    @Test
    void rowsOnStdoutFieldsFilledOneWarcResponsePerPageAndTheSummaryOnStderr(@TempDir Path dir) throws Exception {
        Path warc = dir.resolve("crawl.warc");
        CrawlCommandTest.Result r = run("crawl", "--output=-", "--extract", "h=title", "--extract-all", "a=a@href",
                "--warc=" + warc, depth(), "--quiet", "--db=jdbc:h2:" + dir.resolve("db"), seeds(dir));

        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> rows = jsonLines(r.out()); // stdout is rows and nothing else
        List<JsonNode> pages = rows.stream().filter(row -> row.get("outcome").asText().equals("ok")).toList();
        assertThat(pages).hasSize(100); // 10 hosts x 10 pages, each linking a robots-disallowed /private/ URL
        assertThat(rows).hasSize(200);
        assertThat(pages).allSatisfy(row -> {
            assertThat(row.get("fields").get("h").asText()).isEqualTo(row.get("title").asText()).isNotEmpty();
            assertThat(row.get("fields").get("a")).isNotEmpty();
            assertThat(row.get("status").asInt()).isEqualTo(200);
        });
        assertThat(rows.stream().map(row -> row.get("url").asText()).collect(Collectors.toSet())).hasSize(200);
        assertThat(r.err()).contains("pages").contains("100"); // the summary table went to stderr

        Set<String> responses = new java.util.HashSet<>();
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord record : reader) {
                if (record instanceof WarcResponse response) {
                    assertThat(responses.add(response.target())).as("one response record per URL").isTrue();
                }
            }
        }
        assertThat(responses).isEqualTo(pages.stream().map(row -> row.get("url").asText()).collect(Collectors.toSet()));
    }

    /** --store-body with a CSV --output: the body columns are in the file (they made the writer fail at the end). */
    @Test
    void storedBodiesGoToACsvOutputToo(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("pages.csv");
        CrawlCommandTest.Result r = run("crawl", "--store-body", "--output=" + csv, depth(), "--quiet",
                "--db=jdbc:h2:" + dir.resolve("db"), seeds(dir));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("could not be written");
        var mapper = new com.fasterxml.jackson.dataformat.csv.CsvMapper();
        List<Map<String, String>> rows;
        try (var it = mapper.readerForMapOf(String.class)
                .with(com.fasterxml.jackson.dataformat.csv.CsvSchema.emptySchema().withHeader()).<Map<String, String>>readValues(csv.toFile())) {
            rows = it.readAll();
        }
        assertThat(rows).hasSize(200);
        assertThat(rows.getFirst()).containsKeys("url", "body", "bodyEncoding");
        assertThat(rows.stream().filter(row -> row.get("outcome").equals("ok")))
                .hasSize(100).allSatisfy(row -> assertThat(row.get("body")).contains("<html"));
    }

    @Test
    void jobsListsThemAndExportStreamsRowsAndLinks(@TempDir Path dir) throws Exception {
        String db = "--db=jdbc:h2:" + dir.resolve("db");
        Path csv = dir.resolve("pages.csv");
        assertThat(run("crawl", "--output=" + csv, depth(), "--quiet", db, seeds(dir)).exit()).isZero();
        assertThat(run("crawl", "--mode=pool", "--max-pages=5", "--quiet", db, farm.seedUrls().get(1)).exit()).isZero();

        CrawlCommandTest.Result jobs = run("jobs", db, "--json");
        assertThat(jobs.exit()).isZero();
        List<JsonNode> listed = jsonLines(jobs.out());
        assertThat(listed).extracting(j -> j.get("id").asLong()).containsExactly(2L, 1L); // newest first
        assertThat(listed.get(1).get("status").asText()).isEqualTo("done");
        assertThat(listed.get(1).get("pages").asLong()).isEqualTo(100);
        assertThat(listed.get(0).get("mode").asText()).isEqualTo("pool:200");
        CrawlCommandTest.Result table = run("jobs", db);
        assertThat(table.out().lines().findFirst().orElseThrow()).contains("id").contains("status").contains("pages");

        CrawlCommandTest.Result jsonl = run("export", "1", db);
        assertThat(jsonl.exit()).as(jsonl.err()).isZero();
        assertThat(jsonLines(jsonl.out())).hasSize(200);
        assertThat(run("export", "1", "--output=-", db).out()).isEqualTo(jsonl.out()); // '-' is stdout, as for crawl
        Path exported = dir.resolve("export.csv.gz");
        assertThat(run("export", "1", "--output=" + exported, db).exit()).isZero();
        List<String> exportedLines = gunzipped(exported).lines().toList();
        // --output wrote the rows as they were stored; export reads them back in URL order: the same set.
        assertThat(Set.copyOf(exportedLines.subList(1, 201)).size()).isEqualTo(200);
        assertThat(exportedLines.getFirst()).startsWith("url,depth,status,outcome,contentType,title");
        assertThat(Files.readAllLines(csv)).hasSize(201).first().isEqualTo(exportedLines.getFirst());
        assertThat(Set.copyOf(Files.readAllLines(csv))).isEqualTo(Set.copyOf(exportedLines));

        CrawlCommandTest.Result links = run("export", "1", "--links", db);
        List<JsonNode> edges = jsonLines(links.out());
        assertThat(edges).isNotEmpty().allSatisfy(e -> assertThat(e.fieldNames()).toIterable().containsExactly("from", "to"));

        CrawlCommandTest.Result missing = run("export", "99", db);
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().strip().lines()).hasSize(1);
        CrawlCommandTest.Result xml = run("export", "1", "--format=xml", db);
        assertThat(xml.exit()).isEqualTo(2);
        assertThat(xml.err().strip()).isEqualTo("loomcrawl: --format must be jsonl, csv or markdown, was 'xml'");
        CrawlCommandTest.Result unwritable = run("export", "1", "--output=/proc/nope/rows.csv", db);
        assertThat(unwritable.exit()).isEqualTo(2);
        assertThat(unwritable.err().strip()).isEqualTo("loomcrawl: --output: cannot write /proc/nope/rows.csv: no such"
                + " folder, or no file can be made there");
    }

    /**
     * Rows reach --output while the crawl waits: the root's and /a's rows, stored within a few ms of each other,
     * are in the file while /slow is still being answered (20 s), gzipped too. (A row was flushed only as a row
     * came, at most every 250 ms, so /a's waited for the next.)
     */
    @Test
    void rowsReachTheFileWhileTheCrawlWaits(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/", TestSite.html("<title>root</title><a href=/a>a</a><a href=/slow>s</a>"));
            site.stub("/a", TestSite.html("<title>a</title>"));
            site.stub("/slow", TestSite.html("<title>slow</title>").withFixedDelay(20_000));
            Path rows = dir.resolve("rows.jsonl.gz");
            ChildProcess crawl = ChildProcess.start(Main.class.getName(), List.of("-Xmx256m"), List.of("crawl",
                    "--ignore-robots", "--output=" + rows, "--db=jdbc:h2:" + dir.resolve("db"), site.url("/")),
                    "loomcrawl: job 1");
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> site.counter.requests("/slow") == 1);
                await().atMost(Duration.ofSeconds(5)).until(() -> gunzipped(rows).contains("\"title\":\"a\""));
                assertThat(crawl.process().isAlive()).isTrue();
            } finally {
                crawl.close();
            }
        }
    }

    /** What a gzip file being written holds so far: every member and block flushed, a cut end forgiven. */
    static String gunzipped(Path file) throws java.io.IOException {
        if (!Files.exists(file)) {
            return "";
        }
        var text = new java.io.ByteArrayOutputStream();
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            in.transferTo(text);
        } catch (java.io.EOFException e) {
            // the crawl is still writing it: what was read so far is what was flushed
        }
        return text.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A file named for a format rows are not written in is refused in one line before anything is crawled. */
    @Test
    void anOutputNamedForAnotherFormatIsRefusedBeforeTheCrawl(@TempDir Path dir) throws Exception {
        String db = "--db=jdbc:h2:" + dir.resolve("db");
        CrawlCommandTest.Result md = run("crawl", "--output=" + dir.resolve("pages.md"), db, seeds(dir));
        assertThat(md.exit()).isEqualTo(2);
        assertThat(md.err().strip()).startsWith("loomcrawl: --output: rows are written as JSON Lines")
                .contains("export JOB --format=markdown").doesNotContain("\n");
        assertThat(run("export", "1", "--output=" + dir.resolve("pages.parquet"), db).exit()).isEqualTo(2);
        assertThat(farm.counters().requests()).isZero();
        assertThat(dir.resolve("pages.md")).doesNotExist();
    }

    /** A command that reads jobs from a --db with no database there says so, and makes none (a typo leaves nothing). */
    @Test
    void readingANameWithNoDatabaseSaysSoAndMakesNone(@TempDir Path dir) {
        String db = "--db=jdbc:h2:" + dir.resolve("typo/db");
        for (String[] args : List.of(new String[] {"export", "1", db}, new String[] {"resume", "1", db},
                new String[] {"recrawl", "1", db})) {
            CrawlCommandTest.Result r = run(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", args)).startsWith("loomcrawl: no database at jdbc:h2:")
                    .doesNotContain("\n");
        }
        CrawlCommandTest.Result jobs = run("jobs", db);
        assertThat(jobs.exit()).isZero();
        assertThat(jobs.out()).contains("no database there yet");
        assertThat(dir.resolve("typo")).doesNotExist();
    }

    @Test
    void ctrlCSuspendsARealCrawlAndResumeFinishesItEachUrlOnce(@TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("db");
        Path rows = dir.resolve("rows.jsonl");
        // One request at a time per host, 250 ms apart: ~3.5 s of crawl (~1.2 s without the delay), so the Ctrl-C
        // below, sent once the first rows are out, finds it running with seconds to spare. (Run from a shell's
        // background job, the JVMs inherit SIGINT ignored, and this test fails: run the build in the foreground.)
        ChildProcess crawl = ChildProcess.start(Main.class.getName(), List.of("-Xmx256m"), List.of("crawl",
                "--per-host=1", "--host-delay-ms=250", "--output=" + rows, depth(), "--db=" + db, seeds(dir)),
                "loomcrawl: job 1");
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(rows) && Files.size(rows) > 0);
            Process interrupt = new ProcessBuilder("kill", "-INT", Long.toString(crawl.process().pid())).start();
            assertThat(interrupt.waitFor()).isZero();
            assertThat(crawl.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(crawl.process().exitValue()).isEqualTo(130);
            await().atMost(Duration.ofSeconds(5)).until(() -> crawl.output().stream().anyMatch(l -> l.contains("resume it with")));
        } finally {
            crawl.close();
        }
        String hint = crawl.output().stream().filter(l -> l.contains("resume it with")).findFirst().orElseThrow();
        assertThat(hint).endsWith("./loomcrawl resume 1 --db='" + db + "'");
        assertThat(crawl.output()).noneMatch(l -> l.contains("Exception") || l.contains("\tat "));
        long before;
        try (Database store = Database.open(db)) {
            assertThat(store.job(1).orElseThrow().status()).isEqualTo("suspended"); // resumable
            before = store.countPages(1, null);
        }
        assertThat(before).isBetween(1L, 199L);

        CrawlCommandTest.Result resumed = run("resume", "1", "--db=" + db, "--json", "--quiet");
        assertThat(resumed.exit()).as(resumed.err()).isZero();
        JsonNode summary = JSON.readTree(resumed.out());
        assertThat(summary.get("pages").asLong()).isEqualTo(100); // the whole job, both runs
        assertThat(summary.get("runs").asInt()).isEqualTo(2);
        try (Database store = Database.open(db)) {
            assertThat(store.countPages(1, null)).isEqualTo(200);
            assertThat(store.job(1).orElseThrow().status()).isEqualTo("done");
        }
        var truth = farm.counters();
        // A suspend lets fetches in flight finish and be stored: every page fetched once over both runs. Only
        // robots.txt is asked for again by the new process, once per host.
        assertThat(truth.byKind()).containsEntry("page", 100L).containsEntry("robots", 20L);
        assertThat(truth.maxInFlightPerHost()).isEqualTo(1); // resume kept the job's settings
    }
}
