package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.bench.FetchFloor;
import dev.loomcrawl.mocksites.Scenario;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    /** The whole bench, small: farm in its own process, both modes, farm-side checks, JSON and HTML out. */
    @Test
    void smokeRun(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--scenario=seed", "--hosts=20", "--pages-per-host=5",
                "--latency=20", "--modes=virtual,pool:4", "--runs=1", "--warmup=0", "--max-in-flight=500", "--json",
                "--out=" + out);
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("violations")).isEmpty();
        assertThat(json.get("modes")).hasSize(2);
        JsonNode pool = json.get("modes").get(1);
        assertThat(pool.get("mode").asText()).isEqualTo("pool:4");
        assertThat(pool.get("bindingLimit").asText()).isNotBlank();
        assertThat(pool.get("ratioToVirtual").asDouble()).isPositive();
        assertThat(json.get("runs").get(0).get("farm").get("maxInFlightPerHost").asInt()).isLessThanOrEqualTo(8);
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<canvas id=\"threads\">").contains("Chart");
        // "Pages done" counts the 100 pages fetched, not the robots-disallowed links skipped beside them
        long mostDone = java.util.regex.Pattern.compile("\"stored\":(\\d+)").matcher(html).results()
                .mapToLong(m -> Long.parseLong(m.group(1))).max().orElse(0);
        assertThat(mostDone).isBetween(1L, 100L);
        assertThat(r.err()).contains("pool:4");
    }

    /** Cold mode: whole crawl processes under GNU time, two option sets, the ideal and the farm's counts. */
    @Test
    void coldRunsTimeWholeCrawlProcesses(@TempDir Path out) throws Exception {
        // The first set names a start-up cache that is not there (JDK 25+): the JVM runs on without it, and the
        // bench says so rather than time it under a label that claims one.
        boolean aot = Runtime.version().feature() >= 25;
        String first = (aot ? "-Xlog:disable -Xlog:all=warning:stderr -XX:AOTCache=" + out.resolve("none.aot") + " "
                : "") + "-Xmx256m";
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--cold", "--scenario=wide", "--hosts=10",
                "--pages-per-host=10", "--latency=20", "--runs=1", "--java-options=" + first,
                "--java-options=-XX:TieredStopAtLevel=1 -Xmx256m", "--json", "--out=" + out);
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("idealSeconds").asDouble()).isCloseTo(0.08, org.assertj.core.data.Offset.offset(1e-9)); // 4 levels x 20 ms
        assertThat(json.get("rows")).hasSize(2);
        for (JsonNode row : json.get("rows")) {
            assertThat(row.get("pages").asDouble()).isEqualTo(100); // every page stored
            assertThat(row.get("pagesServed").asDouble()).isEqualTo(100); // and the farm served each
            assertThat(row.get("lostPages").asLong()).isZero();
            assertThat(row.get("wallSeconds").asDouble()).isPositive();
            assertThat(row.get("cpuSeconds").asDouble()).isPositive();
            assertThat(row.get("peakRssMb").asDouble()).isBetween(20.0, 2_000.0);
            assertThat(row.get("duplicateFetches").asLong()).isZero();
            assertThat(row.get("maxInFlightPerHost").asInt()).isBetween(1, 8);
            assertThat(row.get("pagesPerSecondByTenth")).hasSize(10);
        }
        for (JsonNode run : json.get("runs")) { // the rates, times each tenth's length, give back every page fetched
            JsonNode t = run.get("throughput");
            double fetched = 0;
            for (JsonNode rate : t.get("pagesPerSecondByTenth")) {
                fetched += rate.asDouble() * t.get("spanSeconds").asDouble() / 10;
            }
            assertThat(t.get("fetches").asLong()).isEqualTo(100);
            assertThat(fetched).isCloseTo(100, org.assertj.core.data.Offset.offset(1e-6));
        }
        assertThat(r.err()).contains("pages/s by tenth of the crawl")
                .contains("warming the farm up with 110 unmeasured requests to 10 of its hosts"); // before the first run
        if (aot) {
            assertThat(r.err().lines().filter(l -> l.contains("its start-up cache was not used")))
                    .singleElement().asString().startsWith("bench --cold: " + first + ": ").contains("[aot]");
        }
        assertThat(json.get("rows").get(1).get("variant").asText()).isEqualTo("-XX:TieredStopAtLevel=1 -Xmx256m");
        assertThat(r.err()).contains("cold crawls of wide"); // the table went to stderr with --json
        assertThat(Files.readString(out.resolve("cold.html"))).contains("<canvas id=\"wall\">").contains("Chart")
                .contains("-XX:TieredStopAtLevel=1 -Xmx256m").contains("<canvas id=\"through\"");
    }

    /**
     * --floor: one more process a round, the farm's requests alone, timed and checked as a crawl is. Its processes
     * get the class path the launcher gives a crawl ({@code loomcrawl.classpath}), which has not the bench's jar
     * that the floor's main class is in.
     */
    @Test
    void theFloorTimesTheFarmsRequestsAlone(@TempDir Path out) throws Exception {
        String bench = Path.of(FetchFloor.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String app = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.equals(bench)).collect(Collectors.joining(File.pathSeparator));
        System.setProperty("loomcrawl.classpath", app);
        CrawlCommandTest.Result r;
        try {
            r = CrawlCommandTest.run("bench", "--cold", "--floor", "--scenario=wide", "--hosts=10",
                    "--pages-per-host=10", "--latency=20", "--runs=1", "--java-options=-XX:TieredStopAtLevel=1 -Xmx256m",
                    "--json", "--out=" + out);
        } finally {
            System.clearProperty("loomcrawl.classpath");
        }
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode rows = new ObjectMapper().readTree(r.out()).get("rows");
        assertThat(rows).hasSize(2);
        JsonNode floor = rows.get(1);
        assertThat(floor.get("variant").asText()).isEqualTo("fetches alone (the floor)");
        assertThat(floor.get("pages").asDouble()).isEqualTo(100); // every page of the farm, once
        assertThat(floor.get("pagesServed").asDouble()).isEqualTo(100);
        assertThat(floor.get("lostPages").asLong()).isZero();
        assertThat(floor.get("duplicateFetches").asLong()).isZero();
        assertThat(floor.get("maxInFlightPerHost").asInt()).isBetween(1, 8);
        assertThat(floor.get("wallSeconds").asDouble()).isPositive();
        assertThat(floor.get("cpuSeconds").asDouble()).isPositive();
        assertThat(floor.get("pagesPerSecondByTenth")).isEmpty(); // it stores nothing to count from
        assertThat(r.err()).contains("fetches alone (the floor) run 1/1");
        assertThat(Files.readString(out.resolve("cold.html"))).contains("fetches alone (the floor)");
    }

    /** A crawl process of ours that fails is said in one line naming its stderr, and the bench exits 1. */
    @Test
    void aCrawlThatFailsFailsTheBench(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--cold", "--scenario=wide", "--hosts=3",
                "--pages-per-host=5", "--latency=20", "--runs=1", "--java-options=-XX:+NoSuchOptionAnywhere",
                "--out=" + out);
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("bench --cold: -XX:+NoSuchOptionAnywhere exited with 1; its stderr: "
                + out.resolve("cold-stderr.txt").toAbsolutePath());
        assertThat(Files.readString(out.resolve("cold-stderr.txt"))).contains("NoSuchOptionAnywhere");
    }

    /**
     * --rival: another crawler, a command, timed in each round against the same farm; its pages are the farm's
     * count of pages served, and its duplicates are its own, not a failure of the bench. Here the rival is a script
     * that crawls the farm twice with loomcrawl itself: every page served, every page fetched twice.
     */
    @Test
    void aRivalIsTimedAgainstTheSameFarm(@TempDir Path out) throws Exception {
        Path rival = out.resolve("twice.sh");
        String crawl = "'" + ProcessHandle.current().info().command().orElseThrow() + "' -cp '"
                + System.getProperty("java.class.path") + "' " + Main.class.getName()
                + " crawl --seeds-file=\"$1\" --max-depth=\"$2\" --per-host=\"$3\" --quiet --db=jdbc:h2:mem:";
        Files.writeString(rival, "#!/bin/sh\nset -e\n" + crawl + "a\n" + crawl + "b\n");
        Files.setPosixFilePermissions(rival, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--cold", "--scenario=wide", "--hosts=10",
                "--pages-per-host=10", "--latency=20", "--runs=1", "--java-options=-XX:TieredStopAtLevel=1 -Xmx256m",
                "--rival=" + rival + " {seeds} {max-depth} {per-host}", "--json", "--out=" + out);
        assertThat(r.exit()).as(r.err()).isZero(); // the rival's duplicates are not ours
        JsonNode rows = new ObjectMapper().readTree(r.out()).get("rows");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("rival").asBoolean()).isFalse();
        assertThat(rows.get(0).get("duplicateFetches").asLong()).isZero();
        JsonNode theRival = rows.get(1);
        // labelled by its program's file name, the rest of its command as given
        assertThat(theRival.get("variant").asText()).isEqualTo("rival: twice.sh {seeds} {max-depth} {per-host}");
        assertThat(theRival.get("rival").asBoolean()).isTrue();
        assertThat(theRival.get("pages").asDouble()).isEqualTo(100); // the farm's count, not the rival's output
        assertThat(theRival.get("lostPages").asLong()).isZero();
        assertThat(theRival.get("duplicateFetches").asLong()).isEqualTo(110); // 100 pages and 10 robots.txt again
        assertThat(theRival.get("maxInFlightPerHost").asInt()).isBetween(1, 8);
        assertThat(theRival.get("cpuSeconds").asDouble()).isPositive(); // two JVMs' worth, under GNU time
        assertThat(theRival.get("cpuMsPerPage").asDouble()).isPositive();
        assertThat(r.err()).contains("and 1 rival(s)").contains("rival: twice.sh");
        assertThat(Files.readString(out.resolve("cold.html"))).contains("In orange, rivals");
    }

    /**
     * Several scenarios in one call: each on its own farm, one after another, a line of JSON each and a report
     * in a folder of each's name. Each is checked first: a mistake in the last is refused before any farm starts.
     */
    @Test
    void severalScenariosRunInOneCall(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--cold", "--scenario=wide,deep", "--hosts=3",
                "--pages-per-host=4", "--latency=20", "--runs=1", "--json", "--out=" + out);
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> results = new java.util.ArrayList<>();
        for (String line : r.out().strip().split("\n")) {
            results.add(new ObjectMapper().readTree(line));
        }
        assertThat(results).extracting(j -> j.get("scenario").asText()).containsExactly("wide", "deep");
        for (JsonNode json : results) {
            assertThat(json.get("rows").get(0).get("pages").asDouble()).isEqualTo(12); // every page of its own farm
        }
        assertThat(out.resolve("wide").resolve("cold.html")).exists();
        assertThat(out.resolve("deep").resolve("cold.json")).exists();

        CrawlCommandTest.Result last = CrawlCommandTest.run("bench", "--cold", "--floor", "--scenario=wide,rough",
                "--out=" + out.resolve("again"));
        assertThat(last.exit()).isEqualTo(2);
        assertThat(last.err().strip()).startsWith("loomcrawl: --floor").contains("(rough has them)");
        assertThat(out.resolve("again")).doesNotExist(); // no farm was started, not even wide's
        CrawlCommandTest.Result warm = CrawlCommandTest.run("bench", "--scenario=wide,deep", "--out=" + out);
        assertThat(warm.exit()).isEqualTo(2);
        assertThat(warm.err()).contains("go with --cold");
        CrawlCommandTest.Result unknown = CrawlCommandTest.run("bench", "--cold", "--scenario=wide,wdie",
                "--out=" + out.resolve("typo"));
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err().strip()).isEqualTo("loomcrawl: --scenario must be one of " + Scenario.names()
                + ", or politeness; was 'wdie'");
        assertThat(out.resolve("typo")).doesNotExist();
    }

    /** A rival that cannot run, or one without --cold, is refused in one line, exit 2, before any farm starts. */
    @Test
    void aRivalThatCannotRunIsRefused(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result missing = CrawlCommandTest.run("bench", "--cold", "--scenario=wide",
                "--rival=" + out.resolve("no-such-crawler") + " {seeds}", "--out=" + out);
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err().strip()).isEqualTo("loomcrawl: --rival: cannot run '" + out.resolve("no-such-crawler")
                + "': no such executable file");
        CrawlCommandTest.Result warm = CrawlCommandTest.run("bench", "--rival=sh -c true", "--out=" + out);
        assertThat(warm.exit()).isEqualTo(2);
        assertThat(warm.err()).contains("--rival goes with --cold").doesNotContain("\tat ");
        assertThat(out.resolve("seeds.txt")).doesNotExist(); // no farm was started
    }

    /** What --floor cannot measure is refused in one line, exit 2, before any farm starts. */
    @Test
    void theFloorRefusesWhatItCannotCompare(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result faults = CrawlCommandTest.run("bench", "--cold", "--floor", "--scenario=rough",
                "--out=" + out);
        assertThat(faults.exit()).isEqualTo(2);
        assertThat(faults.err().strip()).startsWith("loomcrawl: --floor").contains("without faults (rough has them)")
                .doesNotContain("\tat ");
        CrawlCommandTest.Result shallow = CrawlCommandTest.run("bench", "--cold", "--floor", "--scenario=deep",
                "--max-depth=1", "--out=" + out);
        assertThat(shallow.exit()).isEqualTo(2);
        assertThat(shallow.err()).contains("--max-depth=2 or more, was 1");
        CrawlCommandTest.Result warm = CrawlCommandTest.run("bench", "--floor", "--out=" + out);
        assertThat(warm.exit()).isEqualTo(2);
        assertThat(warm.err()).contains("--floor goes with --cold");
    }
}
