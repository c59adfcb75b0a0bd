package dev.loomcrawl.crawler;

import java.lang.management.ManagementFactory;

/**
 * Heap retained by a frontier of N queued URLs on 1,000 hosts (default 1,000,000). A measurement, not a
 * test: {@code ./mvnw -q -pl crawler -Pjmh test-compile exec:exec -Dbench.main=dev.loomcrawl.crawler.FrontierMemory -Djmh.args=1000000}.
 */
public final class FrontierMemory {
    private FrontierMemory() {}

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Frontier frontier = new Frontier(new HostLimiter(8), 10, Integer.MAX_VALUE, 10_000, true, 0, 10);
        long before = usedAfterGc();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            frontier.seed(CrawlUrl.of("http://h" + (i % 1_000) + ".loomcrawl.test:8080/page/" + i + "?from=" + (i * 7 % 1_000)));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long retained = usedAfterGc() - before;
        System.out.printf("%,d URLs queued: %,d MB retained, %.0f bytes/URL, %.1f s to admit (%d queued)%n", n,
                retained >> 20, retained / (double) n, seconds, frontier.queued());
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
