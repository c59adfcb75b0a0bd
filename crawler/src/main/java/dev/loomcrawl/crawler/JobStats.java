package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlProgress;
import dev.loomcrawl.crawler.values.CrawlSummary;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.Latency;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.jspecify.annotations.Nullable;

/** One job's figures in this process: its {@link Tally}, task latency, common failures, time and CPU. */
public final class JobStats {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final int MAX_FAILURE_KINDS = 1_000;
    private static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(5);

    private record Point(long nanos, long fetches) {}

    private final Tally tally;
    private final long[] before; // pages, failed, skipped stored by earlier runs
    private final ConcurrentHistogram pageMicros = new ConcurrentHistogram(MAX_MICROS, 2);
    private final ConcurrentHashMap<CrawlSummary.TopFailure, LongAdder> failureDetails = new ConcurrentHashMap<>();
    private final ArrayDeque<Point> recent = new ArrayDeque<>(); // guarded by itself
    private volatile long startNanos;
    private volatile long endNanos;
    private volatile long startCpu = -1;
    private volatile double cpuSeconds = -1;
    private volatile RuntimeSampler.@Nullable Peak peak;
    private volatile int peakPlatformThreads;

    public JobStats(@Nullable Tally parent, long pagesBefore, long failedBefore, long skippedBefore) {
        this.tally = new Tally(parent);
        this.before = new long[] {pagesBefore, failedBefore, skippedBefore};
    }

    Tally tally() {
        return tally;
    }

    void start(RuntimeSampler sampler) {
        peak = sampler.watchPeak();
        startCpu = RuntimeSampler.processCpuNanos();
        startNanos = System.nanoTime();
        synchronized (recent) {
            recent.addLast(new Point(startNanos, tally.fetches())); // the first line's rate counts from the start
        }
    }

    void finish() {
        endNanos = System.nanoTime();
        RuntimeSampler.Peak p = peak;
        if (p != null) {
            p.close();
            peakPlatformThreads = p.value();
        }
        long cpu = RuntimeSampler.processCpuNanos();
        cpuSeconds = cpu < 0 || startCpu < 0 ? -1 : (cpu - startCpu) / 1e9;
    }

    /** A URL's result was stored, {@code pageNanos} after its lease was handed out. */
    void stored(PageRecord page, long pageNanos) {
        tally.stored(page);
        if (page.attempts() > 0) {
            pageMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, pageNanos / 1_000)));
        }
        if (page.outcome() == Outcome.FAILED && page.failure() != null) {
            CrawlSummary.TopFailure key = new CrawlSummary.TopFailure(page.failure(), page.detail(), 0);
            LongAdder n = failureDetails.get(key);
            if (n == null && failureDetails.size() < MAX_FAILURE_KINDS) {
                n = failureDetails.computeIfAbsent(key, k -> new LongAdder());
            }
            if (n != null) {
                n.increment();
            }
        }
    }

    double seconds() {
        long start = startNanos;
        if (start == 0) {
            return 0;
        }
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        return (end - start) / 1e9;
    }

    double cpuSeconds() {
        if (endNanos != 0) {
            return cpuSeconds;
        }
        long cpu = RuntimeSampler.processCpuNanos();
        return cpu < 0 || startCpu < 0 ? -1 : (cpu - startCpu) / 1e9;
    }

    /** Requests for pages per second in this run. */
    double requestsPerSecond() {
        double seconds = seconds();
        return seconds <= 0 ? 0 : round1(tally.fetches() / seconds);
    }

    int peakPlatformThreads() {
        RuntimeSampler.Peak p = peak;
        return endNanos != 0 || p == null ? peakPlatformThreads : p.value();
    }

    /** Live figures; the rates count requests, as the summary's {@code pagesPerSecond} does. */
    CrawlProgress progress(long jobId, String status, long queued, long due, long inFlight, int maxPages,
            boolean continuous) {
        long fetches = tally.fetches();
        long now = System.nanoTime();
        double recentRate;
        synchronized (recent) { // a few deque operations, no I/O
            if (recent.isEmpty() || now - recent.peekLast().nanos() > RATE_WINDOW_NANOS / 20) {
                recent.addLast(new Point(now, fetches));
            }
            while (recent.size() > 2 && now - recent.peekFirst().nanos() > RATE_WINDOW_NANOS) {
                recent.removeFirst();
            }
            Point first = recent.peekFirst();
            double span = (now - first.nanos()) / 1e9;
            recentRate = span < 0.2 ? 0 : (fetches - first.fetches()) / span;
        }
        return new CrawlProgress(jobId, status, before[0] + tally.pages(), before[1] + tally.failed(),
                before[2] + tally.skipped(), queued, due, inFlight, tally.fetching(), round1(seconds()), requestsPerSecond(),
                round1(recentRate), maxPages, continuous, tally.failures(), tally.changes());
    }

    /** This run's summary; for a job that ran in one process, the whole job's. */
    CrawlSummary summary(long jobId, JobStatus status, CrawlConfig config, Map<String, String> givenUp) {
        List<CrawlSummary.TopFailure> top = new ArrayList<>();
        failureDetails.forEach((key, n) -> top.add(new CrawlSummary.TopFailure(key.kind(), key.detail(), n.sum())));
        top.sort(Comparator.comparingLong(CrawlSummary.TopFailure::count).reversed()
                .thenComparing(CrawlSummary.TopFailure::kind));
        return new CrawlSummary(jobId, status.label(), config.execution().mode().label(), config.execution().poolSize(),
                config.politeness().perHostConcurrency(), tally.pages(), tally.failed(), tally.skipped(), tally.bytes(),
                Math.round(seconds() * 1000) / 1000.0, requestsPerSecond(), tally.statuses(), tally.failures(),
                tally.skips(), List.copyOf(top.subList(0, Math.min(5, top.size()))), firstOf(givenUp, 20),
                tally.latency(), Latency.of(pageMicros.copy()), tally.retries(), peakPlatformThreads(),
                Math.round(cpuSeconds() * 100) / 100.0, 1);
    }

    static Map<String, String> firstOf(Map<String, String> map, int n) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        map.entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(n)
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    public static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
