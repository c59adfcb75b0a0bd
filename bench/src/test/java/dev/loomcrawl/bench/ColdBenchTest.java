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

class ColdBenchTest {

    private static final long SECOND = 1_000_000; // the times are in microseconds

    /** Eleven fetches a second apart: one in each tenth of the ten seconds, the last one in the last tenth. */
    @Test
    void pagesPerSecondByTenthOfTheCrawl() {
        List<Long> times = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            times.add(1_700_000_000 * SECOND + i * SECOND);
        }
        ColdBench.Throughput t = ColdBench.Throughput.of(times);
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
        ColdBench.Throughput t = ColdBench.Throughput.of(times);
        assertThat(t.pagesPerSecondByTenth().getFirst()).isGreaterThan(t.pagesPerSecondByTenth().getLast());
        assertThat(t.lateOverEarly()).isLessThan(1);
        double total = t.pagesPerSecondByTenth().stream().mapToDouble(Double::doubleValue).sum() * t.spanSeconds() / 10;
        assertThat(total).isCloseTo(150, within(1e-6)); // every fetch in one tenth
    }

    @Test
    void fewerThanTwoFetchesHaveNoRate() {
        assertThat(ColdBench.Throughput.of(List.of(5L)).pagesPerSecondByTenth()).isEmpty();
    }

    /** Without --java-options a crawl runs as the launcher runs one: the same options, and its cache when it names one. */
    @Test
    void theDefaultOptionsAreTheLaunchersWithItsStartUpCache() {
        ColdBench.Variant shortOne = ColdBench.launcherDefaults(true,
                Map.of("LOOMCRAWL_CRAWL_CACHE_C1", "/c/crawl-1-c1.aot", "LOOMCRAWL_CRAWL_CACHE_C2", "/c/crawl-1-c2.aot"));
        assertThat(shortOne.jvmOptions()).containsSubsequence(ColdBench.LAUNCHER_OPTIONS.split(" "))
                .contains("-XX:AOTCache=/c/crawl-1-c1.aot", "-Xlog:all=warning:stderr")
                .doesNotContain("-XX:AOTCache=/c/crawl-1-c2.aot");
        assertThat(shortOne.label()).isEqualTo("launcher's options and start-up cache");

        ColdBench.Variant longOne = ColdBench.launcherDefaults(false, Map.of("LOOMCRAWL_CRAWL_CACHE_C2", "/c/crawl-1-c2.aot"));
        assertThat(longOne.jvmOptions()).containsSubsequence(ColdBench.LAUNCHER_OPTIONS_LONG.split(" "))
                .contains("-XX:AOTCache=/c/crawl-1-c2.aot").doesNotContain("-XX:TieredStopAtLevel=1");

        ColdBench.Variant none = ColdBench.launcherDefaults(true, Map.of()); // no cache recorded yet, or JDK 21
        assertThat(none.jvmOptions()).noneMatch(o -> o.startsWith("-XX:AOTCache"));
        assertThat(none.label()).isEqualTo("launcher's options, no start-up cache");
        assertThat(none.jvmOptions().contains("-XX:+UseCompactObjectHeaders")).isEqualTo(Runtime.version().feature() >= 25);
    }

    /**
     * The bench's copy of the launcher's options is the launcher's: {@code jvm_options} of the script both
     * launchers source, run for a short and a long crawl, gives every option the bench gives those crawls.
     */
    @Test
    void theBenchGivesCrawlsTheLaunchersOptions() throws Exception {
        assertThat(launcherOptions("crawl")).containsSubsequence(ColdBench.LAUNCHER_OPTIONS.split(" "));
        assertThat(launcherOptions("crawl", "--max-pages=100000"))
                .containsSubsequence(ColdBench.LAUNCHER_OPTIONS_LONG.split(" "))
                .doesNotContain("-Dloomcrawl.clients=1"); // a long crawl's idle connections want more than one pool
        // every one-shot command reflects through native accessors; a server, which runs for days, as the JVM would
        assertThat(launcherOptions("jobs")).contains("-Djdk.reflect.useNativeAccessorOnly=true");
        assertThat(launcherOptions("serve")).doesNotContain("-Djdk.reflect.useNativeAccessorOnly=true");
    }

    private static List<String> launcherOptions(String... args) throws IOException, InterruptedException {
        Path script = Path.of("..", "cli", "src", "dist", "bin", "loomcrawl-launch.sh").toAbsolutePath().normalize();
        List<String> command = new ArrayList<>(List.of("bash", "-c", ". \"$0\"; jvm_options \"$1\" \"${@:2}\"; echo \"$jvm_opts\"",
                script.toString(), System.getProperty("java.home")));
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LOOMCRAWL_JAVA_OPTS"); // the user's own options would change the launcher's
        Process p = builder.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(Files.exists(script)).isTrue();
        return Arrays.asList(out.split("\\s+"));
    }
}
