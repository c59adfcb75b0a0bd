package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.bench.ChildProcess;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.mocksites.FarmCounters;
import dev.loomcrawl.mocksites.Faults;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcResponse;

/** A real serve process, killed mid-crawl, then serve again on the same database. */
class CrashRecoveryTest {
    private static final Pattern PORT = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)");
    private MockSites farm;

    @BeforeEach
    void startFarm() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(30, 10).withLatency(LatencyModel.fixed(250)));
    }

    @AfterEach
    void stopFarm() {
        farm.close();
    }

    static ChildProcess serve(String db, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("serve", "--port=0", "--db=" + db, "--no-pinning-watch"));
        args.addAll(List.of(more));
        return ChildProcess.start(Main.class.getName(), List.of("-Xmx512m"), args, ServeCommand.READY);
    }

    static int port(ChildProcess serve) {
        Matcher m = PORT.matcher(serve.readyLine());
        assertThat(m.find()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private String crawlBody() {
        return crawlBody(2);
    }

    private String crawlBody(int perHost) {
        return "{\"seeds\":" + farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(",", "[", "]"))
                + ",\"maxDepth\":" + (farm.graph().maxDepth() + 1) + ",\"perHostConcurrency\":" + perHost + "}";
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SIGKILL", "SIGTERM"})
    void theJobResumesWithNothingLostAndNothingStoredTwice(String signal, @TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("crawl");
        long pagesTotal = farm.graph().config().totalPages(); // 300, plus a robots-disallowed link each
        long id;
        long committedAtKill;
        long committedLastHalfSecond;
        long started;
        double crawledSeconds;
        ChildProcess serve = serve(db);
        try (Http http = Http.local(port(serve))) {
            // One request per host: rows come in waves of 60 (every host answers together) every 250 ms.
            id = http.post("/crawl", crawlBody(1)).json().get("id").asLong();
            started = System.nanoTime();
            // Committed rows over time, so what was committed in the last half second before the kill is
            // measured, not an average rate that counts the job's start.
            List<long[]> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                long total = http.get("/crawl/" + id + "/pages?limit=1").json().get("total").asLong();
                committed.add(new long[] {System.nanoTime(), total});
                return total >= 400; // of 600: two seconds of committing, well into the crawl
            });
            committedAtKill = http.get("/crawl/" + id + "/pages?limit=1").json().get("total").asLong(); // committed rows
            long halfSecondAgo = System.nanoTime() - 500_000_000L;
            committedLastHalfSecond = committedAtKill - committed.stream().filter(c -> c[0] <= halfSecondAgo)
                    .mapToLong(c -> c[1]).max().orElse(0);
            crawledSeconds = (System.nanoTime() - started) / 1e9;
            if (signal.equals("SIGKILL")) {
                serve.kill(); // no hook, no flush: whatever the database had not written is gone
            } else {
                serve.close(); // SIGTERM: finish what is in flight, then stop
            }
        } finally {
            serve.close();
        }
        FarmCounters.Snapshot atStop = farm.counters();
        assertThat(atStop.byKind().get("page")).isLessThan(pagesTotal); // it really stopped midway

        // What `jobs` shows: a job whose process was killed is interrupted, a gracefully stopped one suspended
        CrawlCommandTest.Result jobs = CrawlCommandTest.run("jobs", "--json", "--db=" + db);
        assertThat(jobs.out()).contains(signal.equals("SIGKILL") ? "\"status\":\"interrupted\"" : "\"status\":\"suspended\"");
        try (Database store = Database.open(db); Crawler crawler = new Crawler(store)) {
            assertThat(store.job(id).orElseThrow().status()).isEqualTo(signal.equals("SIGKILL") ? "running" : "suspended");
            // the run's time is on record, killed or not: at most one checkpoint of it lost
            assertThat(store.job(id).orElseThrow().activeSeconds())
                    .isGreaterThan(crawledSeconds - JobRow.CHECKPOINT.toMillis() / 1000.0 - 0.5);
            long storedAtStop = store.countPages(id, null);
            // The promise: a kill loses at most the last ~250 ms of stored rows (the writer makes H2 write its
            // commits to the file every 250 ms; half a second here, for the polls' own lag), never more, and
            // never anything a graceful stop stored.
            assertThat(committedAtKill - storedAtStop)
                    .as("rows lost of %d, %d of them committed in the last half second", committedAtKill,
                            committedLastHalfSecond)
                    .isLessThanOrEqualTo(Math.max(5, committedLastHalfSecond));
            assertThat(crawler.resumeUnfinished()).containsExactly(id);
            CrawlJob job = crawler.job(id).orElseThrow();
            assertThat(job.awaitSummary().status()).isEqualTo("done");

            assertThat(store.countPages(id, 200)).isEqualTo(pagesTotal); // nothing lost
            assertThat(store.countPages(id, null)).isEqualTo(2 * pagesTotal); // each URL once: pages + private links
            assertThat(store.job(id).orElseThrow().status()).isEqualTo("done");
            assertThat(job.summary().pages()).isEqualTo(pagesTotal); // the summary covers the whole job
            assertThat(job.summary().runs()).isEqualTo(2);
            FarmCounters.Snapshot end = farm.counters();
            assertThat(end.maxFetchesOfOneUrl()).isLessThanOrEqualTo(2); // in flight at the stop: fetched again, once
            assertThat(end.robotsViolations()).isZero();
            long refetchedPages = end.byKind().get("page") - pagesTotal;
            if (signal.equals("SIGTERM")) {
                assertThat(refetchedPages).isZero(); // a graceful stop stores what it fetched
            } else {
                assertThat(refetchedPages).isLessThanOrEqualTo(pagesTotal - store.countPages(id, 200) + 300);
            }
        }
    }

    /**
     * A crawl writing {@code --output} killed with SIGKILL: {@code jobs} shows what the database holds, and
     * {@code resume --output} with the same file leaves it holding each stored URL once, every line whole
     * (rows reach the file a moment before their commit, and a kill can cut the last line). Gzipped, the file
     * is cut inside its member too. Its WARC file reads to its end after the resume, every page in it, though the
     * kill is made to have cut a record short (the start of one is put after the last whole record: a kill inside
     * that one write is too rare to wait for).
     */
    @Test
    void aKilledCrawlsOutputIsWholeAfterResumeAndJobsShowsWhatIsStored(@TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("crawl");
        Path rows = dir.resolve("rows.jsonl.gz");
        Path warc = dir.resolve("crawl.warc.gz");
        List<String> args = new java.util.ArrayList<>(List.of("crawl", "--db=" + db, "--output=" + rows,
                "--warc=" + warc, "--per-host=1", "--max-depth=" + (farm.graph().maxDepth() + 1)));
        args.addAll(farm.seedUrls());
        ChildProcess crawl = ChildProcess.start(Main.class.getName(), List.of("-Xmx512m"), args, "loomcrawl: job ");
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(rows) && Files.size(rows) > 6_000);
            crawl.kill();
        } finally {
            crawl.close();
        }
        long stored;
        try (Database store = Database.open(db)) {
            stored = store.countPages(1, null);
        }
        assertThat(stored).isPositive().isLessThan(2 * farm.graph().config().totalPages());

        JsonNode job = Http.parse(CrawlCommandTest.run("jobs", "--json", "--db=" + db).out().lines().findFirst().orElseThrow());
        assertThat(job.get("status").asText()).isEqualTo("interrupted");
        assertThat(job.get("pages").asLong() + job.get("failed").asLong() + job.get("skipped").asLong()).isEqualTo(stored);
        assertThat(job.get("seconds").asDouble()).isPositive();

        byte[] written = Files.readAllBytes(warc);
        Files.write(warc, java.util.Arrays.copyOfRange(written, written.length / 2, written.length / 2 + 300),
                java.nio.file.StandardOpenOption.APPEND);

        CrawlCommandTest.Result resumed = CrawlCommandTest.run("resume", "1", "--db=" + db, "--output=" + rows, "--quiet");
        assertThat(resumed.exit()).as(resumed.err()).isZero();
        Set<String> archived = new HashSet<>();
        try (WarcReader reader = new WarcReader(warc)) {
            reader.records().filter(r -> r instanceof WarcResponse).forEach(r -> archived.add(((WarcResponse) r).target()));
        }
        List<String> lines = DataCommandsTest.gunzipped(rows).lines().toList();
        Set<String> urls = new HashSet<>();
        for (String line : lines) {
            assertThat(urls.add(Http.parse(line).get("url").asText())).as("stored twice: %s", line).isTrue();
        }
        try (Database store = Database.open(db)) {
            assertThat(lines).hasSize((int) store.countPages(1, null));
            assertThat(store.countPages(1, 200)).isEqualTo(farm.graph().config().totalPages());
            assertThat(archived).containsAll(store.pages(1, 0, Integer.MAX_VALUE, 200).stream().map(PageRecord::url)
                    .toList());
        }
    }

    /**
     * A {@code Retry-After} window outlives the process that was told it: pages of one host answer 429 with
     * {@code Retry-After: 6} at random, serve is killed with SIGKILL inside a window, and the serve started
     * again on the same database asks nothing of the host before the window ends (it used to ask at once).
     * One host, one request at a time: at the kill nothing is in flight, so every window the farm opened is
     * one the crawler was told of (a 429 still on the wire when a process dies binds no one).
     */
    @Test
    void retryAfterWindowsSurviveAKill(@TempDir Path dir) throws Exception {
        farm.close();
        farm = MockSites.start(Scenario.DEMO.config().withSize(1, 60).withLatency(LatencyModel.fixed(30))
                .withFaults(new Faults(0, 0.20, 6, 0, 0, 2_000, 0, 5 << 20, 0, 2, 0, false, 0, false)));
        String db = "jdbc:h2:" + dir.resolve("rests");
        ChildProcess serve = serve(db);
        try (Http http = Http.local(port(serve))) {
            assertThat(http.post("/crawl", crawlBody(1)).status()).isEqualTo(202);
            long[] firstSeen = {0};
            // 200 ms after the farm sent its first 429, the crawler has long taken it in and rests the host
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                if (firstSeen[0] == 0 && farm.counters().byKind().getOrDefault("429", 0L) > 0) {
                    firstSeen[0] = System.nanoTime();
                }
                return firstSeen[0] != 0 && System.nanoTime() - firstSeen[0] > 200_000_000L;
            });
            serve.kill();
        } finally {
            serve.close();
        }
        FarmCounters.Snapshot atKill = farm.counters();
        assertThat(atKill.retryAfterViolations()).isZero();
        ChildProcess again = serve(db);
        try {
            // The resumed job asks the host again: after its window, or (before the fix) at once
            await().atMost(Duration.ofSeconds(30)).until(() -> farm.counters().requests() > atKill.requests());
        } finally {
            again.close();
        }
        FarmCounters.Snapshot end = farm.counters();
        assertThat(end.retryAfterViolations()).as("requests inside a Retry-After window").isZero();
    }

    /**
     * Starts {@code serve} on {@code db}, starts a crawl (job 1 of a fresh database), and once it has stored ten
     * pages does {@code last} and kills the process with SIGKILL. Returns the job's id.
     */
    private long killedMidCrawl(String db, java.util.function.Consumer<Http> last) throws Exception {
        ChildProcess serve = serve(db);
        try (Http http = Http.local(port(serve))) {
            long id = http.post("/crawl", crawlBody()).json().get("id").asLong();
            assertThat(id).isEqualTo(1);
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    http.get("/crawl/" + id).json().get("progress").get("pages").asLong() >= 10);
            last.accept(http);
            serve.kill();
            return id;
        } finally {
            serve.close();
        }
    }

    /** A cancel answered 202 stays cancelled, whatever happens to the process right after. */
    @Test
    void aCancelSurvivesAKillRightAfterIt(@TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("cancel");
        long id = killedMidCrawl(db, http -> {
            assertThat(http.delete("/crawl/1").status()).isEqualTo(202);
        });
        ChildProcess again = serve(db);
        try (Http http = Http.local(port(again))) {
            assertThat(again.output()).noneMatch(line -> line.startsWith("resumed"));
            assertThat(http.get("/crawl/" + id).json().get("status").asText()).isEqualTo("cancelled");
        } finally {
            again.close();
        }
    }

    /** A start that fails (its port is taken) leaves every unfinished job as it was, resumable. */
    @Test
    void aFailedStartLeavesJobsResumable(@TempDir Path dir) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("start");
        long id = killedMidCrawl(db, http -> { });
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            // a process of its own: Javalin's own ERROR line, printed before ours, counts too
            CrawlCommandTest.Result r = CrawlCommandTest.runProcess("serve", "--port=" + taken.getLocalPort(), "--db=" + db,
                    "--no-pinning-watch");
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err().strip().lines()).hasSize(1);
            assertThat(r.err()).contains("port is in use").contains("127.0.0.1:" + taken.getLocalPort());
        }
        try (Database store = Database.open(db)) {
            assertThat(store.job(id).orElseThrow().status()).isEqualTo("running"); // untouched: resumes next start
        }
    }
}
