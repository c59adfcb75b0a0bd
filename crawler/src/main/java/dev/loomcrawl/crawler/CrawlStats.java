package dev.loomcrawl.crawler;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/** Counters and latency histograms of one job, written by every task without locks. */
final class CrawlStats {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final LongAdder pages = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder fetched = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder fetching = new LongAdder();
    private final ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentHistogram fetchMicros = new ConcurrentHistogram(MAX_MICROS, 2);
    private final ConcurrentHistogram pageMicros = new ConcurrentHistogram(MAX_MICROS, 2);
    private volatile long startNanos;
    private volatile long endNanos;
    private long startCpuNanos;
    private volatile double cpuSeconds = -1;
    private volatile int peakPlatformThreads;
    private final CrawlTotals totals;

    CrawlStats(CrawlTotals totals, long pagesBefore, long failedBefore) {
        this.totals = totals;
        pages.add(pagesBefore); // a resumed job counts what it stored before the restart
        failed.add(failedBefore);
    }

    void start() {
        THREADS.resetPeakThreadCount();
        startCpuNanos = processCpuNanos();
        startNanos = System.nanoTime();
    }

    void finish() {
        endNanos = System.nanoTime();
        peakPlatformThreads = THREADS.getPeakThreadCount();
        long cpu = processCpuNanos();
        cpuSeconds = cpu < 0 || startCpuNanos < 0 ? -1 : (cpu - startCpuNanos) / 1e9;
    }

    void retried() {
        retries.increment();
        fetched.increment(); // the failed attempt was a request too
    }

    void fetchStarted() {
        fetching.increment();
        totals.fetchStarted();
    }

    void fetchEnded() {
        fetching.decrement();
        totals.fetchEnded();
    }

    /**
     * @param fetchNanos the HTTP exchange's time, or a negative value when no request was made
     *     (robots.txt disallowed the URL): such rows count as failed but not as fetches or latency
     */
    void record(PageRecord page, long fetchNanos, long pageNanos) {
        totals.record(page.status(), page.failed(), fetchNanos);
        (page.failed() ? failed : pages).increment();
        if (fetchNanos < 0) {
            failures.computeIfAbsent(page.failure(), s -> new LongAdder()).increment();
            return;
        }
        fetched.increment();
        bytes.add(page.bytes());
        statuses.computeIfAbsent(page.status(), s -> new LongAdder()).increment();
        if (page.failed()) {
            failures.computeIfAbsent(page.failure(), s -> new LongAdder()).increment();
        }
        fetchMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, fetchNanos / 1_000)));
        pageMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, pageNanos / 1_000)));
    }

    long pages() {
        return pages.sum();
    }

    long failed() {
        return failed.sum();
    }

    long fetching() {
        return fetching.sum();
    }

    double seconds() {
        long start = startNanos;
        if (start == 0) {
            return 0;
        }
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return (end - start) / 1e9;
    }

    /** HTTP fetches per second: pages, redirects and failed requests; not URLs robots.txt kept us from. */
    double pagesPerSecond() {
        double seconds = seconds();
        return seconds <= 0 ? 0 : Math.round(fetched.sum() / seconds * 10) / 10.0;
    }

    CrawlSummary summary(long jobId, JobStatus status, CrawlConfig config) {
        Map<String, Long> byStatus = new TreeMap<>();
        statuses.forEach((code, n) -> byStatus.put(String.valueOf(code), n.sum()));
        Map<String, Long> byFailure = new TreeMap<>();
        failures.forEach((kind, n) -> byFailure.put(kind, n.sum()));
        int peak = endNanos == 0 ? THREADS.getPeakThreadCount() : peakPlatformThreads;
        return new CrawlSummary(jobId, status.label(), config.mode().label(), config.poolSize(),
                config.perHostConcurrency(), pages(), failed(), bytes.sum(), Math.round(seconds() * 1000) / 1000.0,
                pagesPerSecond(), byStatus, byFailure, Latency.of(fetchMicros.copy()),
                Latency.of(pageMicros.copy()), retries.sum(), peak, Math.round(cpuSeconds * 100) / 100.0);
    }

    private static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }
}
