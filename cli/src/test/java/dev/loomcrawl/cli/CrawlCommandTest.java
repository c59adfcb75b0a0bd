package dev.loomcrawl.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.TestSite;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The crawl command end to end: real farm, real H2, the real command line. */
class CrawlCommandTest {
    private static MockSites farm;

    @BeforeAll
    static void startFarm() {
        farm = MockSites.start(Scenario.DEMO.config().withSize(20, 10).withLatency(
                dev.loomcrawl.mocksites.LatencyModel.fixed(20)));
    }

    @AfterAll
    static void stopFarm() {
        farm.close();
    }

    record Result(int exit, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }

    /**
     * The command in a process of its own, as a user runs it: everything it prints counts, libraries' logging
     * included (an in-process run sees only what the command writes to its own streams).
     */
    static Result runProcess(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        String out = readAll(p.getInputStream());
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out, err.get());
    }

    private static String readAll(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "pool"})
    void crawlsTheFarmAndPrintsOneJsonObject(String mode, @TempDir Path dir) throws Exception {
        farm.reset();
        Path seeds = dir.resolve("seeds.txt");
        Files.write(seeds, farm.seedUrls().subList(1, 20));
        Result r = run("crawl", "--mode=" + mode, "--pool-size=16", "--per-host=2", "--max-depth="
                + (farm.graph().maxDepth() + 1), "--seeds-file=" + seeds, "--json", "--quiet",
                "--db=jdbc:h2:" + dir.resolve("db"), farm.seedUrls().getFirst());

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out()); // exactly one JSON document
        assertThat(r.out().strip().lines()).hasSize(1);
        assertThat(json.get("mode").asText()).isEqualTo(mode);
        // 200 pages, and their 200 /private/ links (one level deeper) recorded as skipped by robots.txt, unfetched.
        assertThat(json.get("pages").asLong()).isEqualTo(200);
        assertThat(json.get("failed").asLong()).isZero();
        assertThat(json.get("skipped").asLong()).isEqualTo(200);
        assertThat(json.get("skips").get("robots").asLong()).isEqualTo(200);
        for (String field : List.of("seconds", "pagesPerSecond", "peakPlatformThreads")) {
            assertThat(json.get(field).asDouble()).as(field).isPositive();
        }
        assertThat(json.get("latencyMs").get("p99").asDouble()).isGreaterThanOrEqualTo(20);
        var truth = farm.counters();
        // Virtual threads hold every URL a host's permits allow; 16 pool threads over 20 hosts with work may each
        // be on a different host from the first page to the last (seen once in CI), so the pool only stays within.
        assertThat(truth.maxInFlightPerHost()).isLessThanOrEqualTo(2);
        if (mode.equals("virtual")) {
            assertThat(truth.maxInFlightPerHost()).isEqualTo(2);
        }
        assertThat(truth.duplicateFetches()).isZero();
        assertThat(truth.robotsViolations()).isZero();
        assertThat(truth.byKind()).containsEntry("page", 200L).containsEntry("robots", 20L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ftp://x                                  | URL must be http or https: 'ftp://x'
            not a url                                | not a valid URL (a relative URL without a base): 'not a url'
            --per-host=0                             | --per-host must be between 1 and 10000, was 0
            --extract=t=h[[[                         | --extract t is not a valid CSS selector
            --allow-domain=co.uk                     | --allow-domain holds 'co.uk', a public suffix
            --allow-url=(?<=x)                       | --allow-url[0] is not a regular expression RE2 runs in linear time
            --header=Host:x                          | --header Host is set by the HTTP client itself
            --output=/proc/nope/x.jsonl              | --output: cannot write /proc/nope/x.jsonl: no such folder
            http://127.0.0.1:99999/                  | not a valid URL (a port above 65535)
            http://127.0.0.1:-1/                     | a port that is not a number
            http://127.0.0.1:+80/                    | a port that is not a number
            http://1.2.3.4.5/                        | an IPv4 address of more than four parts
            --mode=fibers                            | mode must be 'virtual' or 'pool'
            --pool-size=0                            | --pool-size must be between
            --max-pages=abc                          | Invalid value for option '--max-pages'
            --content=html                           | --content must be 'markdown', 'text' or 'none', was 'html'
            --content-max-chars=10                   | --content-max-chars must be between 1000 and 100000000, was 10
            --max-body-bytes=10                      | --max-body-bytes must be between 1024 and 1073741824, was 10
            --seeds-file=/nonexistent/seeds.txt      | --seeds-file: cannot read
            --bogus                                  | Unknown option: '--bogus'
            http://user:s3cret@example.com/          | must not carry credentials
            '--header=Authorization Bearer s3cret'   | --header must look like 'Name: value'
            --webhook-url=http://hook.test/          | --webhook-secret must be given: every delivery is signed with it
            """)
    void badInputIsOneLineAndExitCodeTwo(String arg, String message) {
        List<String> args = new ArrayList<>(List.of("crawl", "--db=jdbc:h2:mem:bad"));
        args.add(arg);
        if (arg.startsWith("--")) {
            args.add("http://example.test/");
        }
        Result r = run(args.toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomcrawl: ").contains(message).doesNotContain("Exception", "\tat ", "s3cret");
    }

    /**
     * {@code --max-body-bytes} is the engine's body cap: a farm page of 4.6 KB is kept cut at 1 KiB, as search
     * engines read a page over their limit, and its row says so.
     */
    @Test
    void aPageOverTheBodyCapIsCutThere(@TempDir Path dir) throws Exception {
        Path rows = dir.resolve("rows.jsonl");
        Result capped = run("crawl", "--max-depth=0", "--max-body-bytes=1024", "--json", "--quiet",
                "--db=jdbc:h2:" + dir.resolve("capped"), "--output=" + rows, farm.seedUrls().getFirst());
        assertThat(capped.exit()).as(capped.err()).isZero();
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(capped.out()).get("pages").asLong()).isEqualTo(1);
        JsonNode row = null;
        for (String line : Files.readAllLines(rows)) {
            JsonNode read = json.readTree(line);
            row = read.get("url").asText().equals(farm.seedUrls().getFirst()) ? read : row;
        }
        assertThat(row).isNotNull();
        assertThat(row.get("outcome").asText()).isEqualTo("ok");
        assertThat(row.get("bytes").asLong()).isEqualTo(1024);
        assertThat(row.get("detail").asText()).isEqualTo("cut at 1024 bytes: the body limit");
    }

    /** {@code --db} takes an H2 file's path as a user names a file: the file H2 made, or the name without its end. */
    @Test
    void aDbGivenAsAPathIsAnH2File(@TempDir Path dir) throws Exception {
        Result crawled = run("crawl", "--max-depth=0", "--json", "--quiet", "--db=" + dir.resolve("crawl"),
                farm.seedUrls().getFirst());
        assertThat(crawled.exit()).as(crawled.err()).isZero();
        assertThat(dir.resolve("crawl.mv.db")).exists();
        Result jobs = run("jobs", "--db=" + dir.resolve("crawl.mv.db"));
        assertThat(jobs.exit()).as(jobs.err()).isZero();
        assertThat(jobs.out()).contains("done");
        Result none = run("jobs", "--db=" + dir.resolve("other"));
        assertThat(none.out()).contains("no database there yet");
        assertThat(dir.resolve("other.mv.db")).doesNotExist();
    }

    /** A database that cannot be opened is one line and exit code 1 (it printed H2's trace, 54 lines). */
    @Test
    void aDatabaseThatCannotBeOpenedIsOneLine() throws Exception {
        Result r = runProcess("crawl", "--db=jdbc:h2:/proc/db", "http://example.test/");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("/proc").contains("not writable").doesNotContain("Exception", "\tat ");
    }

    /** A database URL's password is never printed: not in an error line, not in a log line, not in output. */
    @ParameterizedTest
    @ValueSource(strings = {
        "jobs --db=jdbc:postgresql://127.0.0.1:1/x?user=x&password=s3cret",
        "serve --port=0 --db=jdbc:postgresql://127.0.0.1:1/x?user=x&password=s3cret",
        "crawl http://example.test/ --db=jdbc:postgresql://127.0.0.1:1/x?password=s3cret&user=x",
        "export 1 --db=jdbc:h2:/proc/x;USER=sa;PASSWORD=s3cret"})
    void aPasswordIsNeverPrinted(String line) throws Exception {
        Result r = runProcess(line.split(" "));
        assertThat(r.exit()).isEqualTo(line.startsWith("export") ? 2 : 1); // export: no database there, it reads
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomcrawl: ");
        assertThat(r.out() + r.err()).doesNotContain("s3cret");
    }

    /**
     * A site's own oddities are the site's business, not a crawl's terminal: robots.txt lines the parser does not
     * know and a sitemap it refuses (a DOCTYPE, which it will not read for fear of XML entities) print nothing.
     */
    @Test
    void aSitesOddRobotsAndSitemapPrintNothing(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite()) {
            site.stub("/robots.txt", ok("User-agent: *\nClean-param: ref /\nHost: www.example.com\n"
                    + "<html><body>not robots</body></html>\nSitemap: " + site.url("/sitemap.xml") + "\n"));
            String sitemap = "<?xml version=\"1.0\"?><!DOCTYPE urlset [<!ENTITY x \"y\">]>"
                    + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>" + site.url("/a")
                    + "</loc></url></urlset>";
            site.stub("/sitemap.xml", ok(sitemap).withHeader("Content-Type", "application/xml"));
            site.stub("/", TestSite.html("<html><title>home</title></html>"));

            Result r = runProcess("crawl", "--sitemaps", "--quiet", "--json", "--db=jdbc:h2:" + dir.resolve("db"),
                    site.url("/"));

            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(new ObjectMapper().readTree(r.out()).get("pages").asLong()).isEqualTo(1);
            assertThat(site.counter.requests("/sitemap.xml")).isPositive();
        }
    }

    /**
     * A seeds file as editors write one: a byte order mark (Notepad), CRLF, comments after a URL; a bad line is
     * named by its number, and a file that is not UTF-8 says so.
     */
    @Test
    void aSeedsFileIsReadAsEditorsWriteItAndABadLineIsNamed(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite().tree(3, 0)) {
            Path seeds = Files.write(dir.resolve("seeds.txt"), ("\uFEFF" + site.url("/p/0") + "\r\n\r\n# the rest\r\n  "
                    + site.url("/p/1") + "  # a comment\r\n" + site.url("/p/2#frag") + "\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Result r = run("crawl", "--seeds-file=" + seeds, "--max-depth=0", "--json", "--quiet",
                    "--db=jdbc:h2:" + dir.resolve("db"));
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(new ObjectMapper().readTree(r.out()).get("pages").asInt()).isEqualTo(3);

            Files.writeString(seeds, site.url("/p/0") + "\nnot a url\n");
            Result bad = run("crawl", "--seeds-file=" + seeds, "--db=jdbc:h2:mem:seedsfile");
            assertThat(bad.exit()).isEqualTo(2);
            assertThat(bad.err()).startsWith("loomcrawl: --seeds-file line 2: not a valid URL");

            Files.write(seeds, new byte[] {'h', 't', 't', 'p', ':', '/', '/', 'x', '/', (byte) 0xE9, '\n'}); // Latin-1
            assertThat(run("crawl", "--seeds-file=" + seeds, "--db=jdbc:h2:mem:seedsfile").err())
                    .contains("is not UTF-8 text");
        }
    }

    @Test
    void noSeedIsAnError() {
        Result r = run("crawl", "--db=jdbc:h2:mem:none");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no seed URL");
    }

    /** Cluster flags, and serve's WARC directory, are checked before anything starts: one line, exit 2. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            serve --db=jdbc:h2:mem:c1 --node-id=a               | --node-id needs a PostgreSQL --db
            serve --db=jdbc:postgresql://127.0.0.1:1/x --node-id=a/b | nodeId must be 1 to 64 letters
            serve --db=jdbc:postgresql://127.0.0.1:1/x --lease-ttl=1 | leaseTtl must be between 2 s and 10 min
            demo --nodes=1                                       | --nodes must be between 2 and 8, was 1
            demo --nodes=3 --db=jdbc:h2:mem:d                    | --db must be a PostgreSQL URL
            demo --db=jdbc:postgresql://127.0.0.1:1/x            | --db goes with --nodes
            serve --db=jdbc:h2:mem:c2 --warc-dir=/dev/null/w     | --warc-dir /dev/null/w cannot be made
            """)
    void badClusterFlagsAreOneLineAndExitCodeTwo(String line, String message) {
        Result r = run(line.split(" "));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomcrawl: ").contains(message).doesNotContain("Exception", "\tat ");
    }
}
