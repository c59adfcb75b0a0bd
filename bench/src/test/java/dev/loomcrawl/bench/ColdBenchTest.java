package dev.loomcrawl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ColdBenchTest {

    private static final long SECOND = 1_000_000; // the times are in microseconds

    /** Eleven fetches a second apart: one in each tenth of the ten seconds, the last one in the last tenth. */
    @Test
    void pagesPerSecondByTenthOfTheCrawl() {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            times.add(1_700_000_000 * SECOND + i * SECOND);
        }
        Throughput t = Throughput.of(times);
        assertThat(t.spanSeconds()).isEqualTo(10.0);
        assertThat(t.fetches()).isEqualTo(11);
        assertThat(t.pagesPerSecondByTenth()).containsExactly(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0);
        assertThat(t.lateOverEarly()).isCloseTo(5.0 / 4, within(1e-9));
    }

    /** A crawl that slows as it goes: as many fetches in its first half second as in the next nine and a half. */
    @Test
    void aCrawlThatSlowsDownHasLateOverEarlyUnderOne() {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            times.add(i * SECOND / 10); // 10 a second for 10 s
        }
        for (int i = 0; i < 50; i++) {
            times.add(10 * SECOND + i * SECOND); // then 1 a second for 50 s: 60 s in all, tenths of 6 s
        }
        Throughput t = Throughput.of(times);
        assertThat(t.pagesPerSecondByTenth().getFirst()).isGreaterThan(t.pagesPerSecondByTenth().getLast());
        assertThat(t.lateOverEarly()).isLessThan(1);
        double total = t.pagesPerSecondByTenth().stream().mapToDouble(Double::doubleValue).sum() * t.spanSeconds() / 10;
        assertThat(total).isCloseTo(150, within(1e-6)); // every fetch in one tenth
    }

    @Test
    void fewerThanTwoFetchesHaveNoRate() {
        assertThat(Throughput.of(List.of(5L)).pagesPerSecondByTenth()).isEmpty();
    }

    /** Without --java-options a crawl runs as the launcher runs one: the same options, and its cache when it names one. */
    @Test
    void theDefaultOptionsAreTheLaunchersWithItsStartUpCache() {
        Variant cached = Variant.launcherDefaults(Map.of("LOOMCRAWL_CRAWL_CACHE", "/c/crawl-1.aot"));
        assertThat(cached.jvmOptions()).contains("-XX:AOTCache=/c/crawl-1.aot", "-Xlog:all=warning:stderr",
                "-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xmx768m");
        assertThat(cached.label()).isEqualTo("launcher's options and start-up cache");

        Variant none = Variant.launcherDefaults(Map.of()); // no cache recorded yet, or JDK 21
        assertThat(none.jvmOptions()).noneMatch(o -> o.startsWith("-XX:AOTCache"));
        assertThat(none.label()).isEqualTo("launcher's options, no start-up cache");
        assertThat(none.jvmOptions().contains("-XX:+UseCompactObjectHeaders")).isEqualTo(Runtime.version().feature() >= 25);
    }

    /**
     * One file, two readers: the launchers' bash and the bench read the same options out of conf/jvm.options, for
     * every command, and nothing a user writes on the command line changes them (a page cap is a safety limit,
     * not a statement of the crawl's size).
     */
    @ParameterizedTest
    @ValueSource(strings = {"crawl", "resume", "jobs", "export", "serve", "bench"})
    void theLauncherAndTheBenchReadTheSameOptions(String command) throws Exception {
        List<String> bench = JvmOptions.read().forCommand(command, Runtime.version().feature());
        assertThat(launcherOptions(command)).isEqualTo(bench);
    }

    /** A collector of the user's (LOOMCRAWL_JAVA_OPTS) replaces ours: the JVM refuses two. */
    @Test
    void aCollectorOfTheUsersReplacesOurs() throws Exception {
        assertThat(launcherOptions(Map.of("LOOMCRAWL_JAVA_OPTS", "-XX:+UseG1GC"), "crawl"))
                .doesNotContain("-XX:+UseParallelGC").contains("-Xmx768m");
    }

    private static List<String> launcherOptions(String... args) throws IOException, InterruptedException {
        return launcherOptions(Map.of(), args);
    }

    /** What the launchers' {@code jvm_options} gives {@code args[0]} (the rest of the command line beside it). */
    private static List<String> launcherOptions(Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        Path script = Path.of("..", "cli", "src", "dist", "bin", "loomcrawl-launch.sh").toAbsolutePath().normalize();
        Path options = Path.of("..", "conf", "jvm.options").toAbsolutePath().normalize();
        List<String> command = new ArrayList<>(List.of("bash", "-c",
                ". \"$0\"; jvm_options \"$1\" \"$2\" \"$3\"; echo \"$jvm_opts\"",
                script.toString(), System.getProperty("java.home"), args[0], options.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LOOMCRAWL_JAVA_OPTS"); // the user's own options would change the launcher's
        builder.environment().putAll(env);
        Process p = builder.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(Files.exists(script)).isTrue();
        return out.isEmpty() ? List.of() : Arrays.asList(out.split("\\s+"));
    }
}
