package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap retained by a frontier of N queued URLs on 1,000 hosts (default 1,000,000). A measurement, not a
 * test: {@code ./mvnw -q -pl crawler -Pjmh test-compile exec:exec -Dbench.main=dev.loomcrawl.crawler.frontier.FrontierMemory -Djmh.args=1000000}.
 */
public final class FrontierMemory {
    private FrontierMemory() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = Files.createTempDirectory("frontier-memory");
        try (PageStore store = PageStore.open("jdbc:h2:" + dir.resolve("db"))) {
            CrawlConfig config = CrawlConfig.builder().seed("http://h0.loomcrawl.test:8080/").maxPages(Integer.MAX_VALUE / 2)
                    .maxDepth(10).build();
            Frontier frontier = MemoryBackend.frontier(1, config, new HostGates(8, false), store, null);
            List<CrawlUrl> urls = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                urls.add(CrawlUrl.of("http://h" + (i % 1_000) + ".loomcrawl.test:8080/page/" + i + "?from=" + (i * 7 % 1_000)));
            }
            long before = usedAfterGc();
            long start = System.nanoTime();
            for (int from = 0; from < n; from += 10_000) {
                frontier.seed(urls.subList(from, Math.min(n, from + 10_000)));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            store.flush();
            long retained = usedAfterGc() - before;
            System.out.printf("%,d URLs queued: %,d MB retained, %.0f bytes/URL, %.1f s to admit (%d queued)%n", n,
                    retained >> 20, retained / (double) n, seconds, frontier.queued());
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200); // a measurement tool: let the collector settle
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
