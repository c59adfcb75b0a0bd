package dev.loomcrawl.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One option set {@code bench --cold} compares: a label, the JVM options of the crawl process and the crawl flags
 * it is given besides the bench's own ({@code --content=markdown}).
 */
record Variant(String label, List<String> jvmOptions, List<String> crawlFlags) {
    static Variant parse(String spec) {
        String s = spec.strip();
        return new Variant(s.isEmpty() ? "default" : s, words(s), List.of());
    }

    /** This set with {@code flags} (split at spaces) added to each crawl, and said in its label. */
    Variant withCrawlFlags(String flags) {
        String f = flags.strip();
        return new Variant(label + (f.isEmpty() ? ", no crawl flags" : ", " + f), jvmOptions, words(f));
    }

    private static List<String> words(String s) {
        return s.isEmpty() ? List.of() : Arrays.stream(s.split("\\s+")).toList();
    }

    /**
     * A crawl as the launcher runs it: the options {@code conf/jvm.options} gives {@code crawl} on this JDK (the
     * file the launchers read; {@code -Dloomcrawl.jvmOptions} names it when the launcher started this process,
     * else the copy in this jar), and the start-up cache the launcher has recorded for this build (it names it in
     * {@code LOOMCRAWL_CRAWL_CACHE} when it starts {@code bench}), if any.
     */
    static Variant launcherDefaults(Map<String, String> env) {
        List<String> options = new ArrayList<>(JvmOptions.read().forCommand("crawl", Runtime.version().feature()));
        String cache = env.getOrDefault("LOOMCRAWL_CRAWL_CACHE", "");
        if (!cache.isBlank()) {
            options.add("-XX:AOTCache=" + cache);
        }
        return new Variant(cache.isBlank() ? "launcher's options, no start-up cache"
                : "launcher's options and start-up cache", List.copyOf(options), List.of());
    }

    /**
     * The JVM's first complaint about its start-up cache in a crawl's stderr, if any: a cache it cannot map (made
     * by another build or JDK, or with other options) is left out with a line tagged {@code aot}, and the crawl
     * runs on without it, slower, under a label that says it had one.
     */
    static Optional<String> startUpCacheRefused(Path stderr) throws IOException {
        if (!Files.exists(stderr)) {
            return Optional.empty();
        }
        try (var lines = Files.lines(stderr, StandardCharsets.ISO_8859_1)) { // any bytes decode: no error over a log line
            return lines.filter(l -> l.contains("[aot]") || l.contains("[aot,")).findFirst().map(String::strip);
        }
    }
}
