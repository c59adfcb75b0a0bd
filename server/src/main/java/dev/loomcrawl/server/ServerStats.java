package dev.loomcrawl.server;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Latency;
import dev.loomcrawl.crawler.values.ProcessStats;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Server-wide live figures for {@code GET /stats}. A virtual thread samples the request count once a
 * second for the 10-second rate; pinned-thread events come from Micrometer's JFR binder ({@link Metrics}).
 */
final class ServerStats implements AutoCloseable {
    private static final Duration WINDOW = Duration.ofSeconds(10);

    /** What {@code /stats} answers. */
    record View(String mode, int poolSize, int perHost, double uptimeSeconds, Map<String, Long> jobs, long pages,
            long failed, long skipped, long fetches, double pagesPerSecondLast10s, double pagesPerSecondSinceStart,
            long fetchesInFlight, int fetchLimit, double carrierLagMs, Map<String, Integer> busiestHosts,
            int livePlatformThreads, int peakPlatformThreads, long virtualThreadsStarted, long heapUsedBytes,
            long heapMaxBytes, Latency latencyMs, Map<String, Long> statuses, Map<String, Long> failures,
            long pinnedVirtualThreadEvents) {}

    private record Point(long nanos, long fetches) {}

    private final Crawler crawler;
    private final ExecutionMode mode;
    private final int poolSize;
    private final long startNanos = System.nanoTime();
    private final ArrayDeque<Point> points = new ArrayDeque<>(); // guarded by itself
    private final LongSupplier pinned;
    private final Thread sampler;
    private volatile boolean closed;

    ServerStats(Crawler crawler, ExecutionMode mode, int poolSize, LongSupplier pinnedEvents) {
        this.crawler = crawler;
        this.mode = mode;
        this.poolSize = poolSize;
        this.pinned = pinnedEvents;
        this.sampler = Thread.ofVirtual().name("stats-sampler").start(this::sample);
    }

    private void sample() {
        try {
            while (!closed) {
                synchronized (points) { // a few deque operations, no I/O
                    points.addLast(new Point(System.nanoTime(), crawler.stats().fetches()));
                    while (points.size() > WINDOW.toSeconds() + 1) {
                        points.removeFirst();
                    }
                }
                Thread.sleep(1_000); // a periodic sample, not a wait for something to happen
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    View view(Map<String, Long> jobsByStatus) {
        ProcessStats f = crawler.stats();
        double uptime = (System.nanoTime() - startNanos) / 1e9;
        double recent;
        synchronized (points) {
            Point first = points.peekFirst();
            long nanos = first == null ? 0 : System.nanoTime() - first.nanos();
            recent = first == null || nanos <= 0 ? 0 : (f.fetches() - first.fetches()) / (nanos / 1e9);
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new View(mode.label(), poolSize, crawler.options().perHost(), round(uptime), jobsByStatus, f.pages(),
                f.failed(), f.skipped(), f.fetches(), round(recent), round(uptime <= 0 ? 0 : f.fetches() / uptime),
                f.fetching(), f.fetchLimit(), f.carrierLagMillis(), f.busiestHosts(), f.livePlatformThreads(),
                f.peakPlatformThreads(), f.virtualThreadsStarted(), heap.getUsed(), heap.getMax(), f.latencyMs(),
                f.statuses(), f.failures(), pinned.getAsLong());
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    @Override
    public void close() {
        closed = true;
        sampler.interrupt();
    }
}
