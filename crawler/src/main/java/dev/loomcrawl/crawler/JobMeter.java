package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.StoredCounts;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.Latency;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.jspecify.annotations.Nullable;

/**
 * What one job measures in this process: its {@link Tally}, task latency, common failures, time and CPU. Read as
 * a {@link JobProgress} while the job runs and as a {@link JobSummary} once it ends.
 */
public final class JobMeter {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final int MAX_FAILURE_KINDS = 1_000;
    private static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(5);

    private record Point(long nanos, long fetches) {}

    private final Tally tally;
    private final long[] before; // pages, failed, skipped stored by earlier runs
    private final ConcurrentHistogram pageMicros = new ConcurrentHistogram(MAX_MICROS, 2);
    private final ConcurrentHashMap<JobSummary.TopFailure, LongAdder> failureDetails = new ConcurrentHashMap<>();
    private final ArrayDeque<Point> recent = new ArrayDeque<>(); // guarded by itself
    private volatile long startNanos;
    private volatile long endNanos;
    private volatile long startCpu = -1;
    private volatile double cpuSeconds = -1;
    private volatile RuntimeSampler.@Nullable Peak peak;
    private volatile int peakPlatformThreads;

    public JobMeter(@Nullable Tally parent, long pagesBefore, long failedBefore, long skippedBefore) {
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
            JobSummary.TopFailure key = new JobSummary.TopFailure(page.failure(), page.detail(), 0);
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
    JobProgress progress(long jobId, String status, long queued, long due, long inFlight, int maxPages,
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
        return new JobProgress(jobId, status, before[0] + tally.pages(), before[1] + tally.failed(),
                before[2] + tally.skipped(), queued, due, inFlight, tally.fetching(), round1(seconds()), requestsPerSecond(),
                round1(recentRate), maxPages, continuous, tally.failures(), tally.changes());
    }

    /** This run's summary; for a job that ran in one process, the whole job's. */
    JobSummary summary(long jobId, JobStatus status, CrawlConfig config, Map<String, String> givenUp) {
        List<JobSummary.TopFailure> top = new ArrayList<>();
        failureDetails.forEach((key, n) -> top.add(new JobSummary.TopFailure(key.kind(), key.detail(), n.sum())));
        top.sort(Comparator.comparingLong(JobSummary.TopFailure::count).reversed()
                .thenComparing(JobSummary.TopFailure::kind));
        return new JobSummary(jobId, status.label(), config.execution().mode().label(), config.execution().poolSize(),
                config.politeness().perHostConcurrency(), tally.pages(), tally.failed(), tally.skipped(), tally.bytes(),
                Math.round(seconds() * 1000) / 1000.0, requestsPerSecond(), tally.statuses(), tally.failures(),
                tally.skips(), List.copyOf(top.subList(0, Math.min(5, top.size()))), firstOf(givenUp, 20),
                tally.latency(), Latency.of(pageMicros.copy()), tally.retries(), peakPlatformThreads(),
                Math.round(cpuSeconds() * 100) / 100.0, 1);
    }

    /**
     * The summary of a job that more than one process ran: counts and latencies from its stored rows, times
     * summed over its runs, the peak of its peaks ({@code peakThreadsHere}: this process's run, 0 for none).
     */
    public static JobSummary wholeJob(PageStore store, long id, JobStatus status, CrawlConfig config,
            int peakThreadsHere, Map<String, String> givenUp) {
        StoredCounts t = store.storedCounts(id);
        JobRow row = store.jobs().find(id).orElseThrow();
        JobSummary before = JobSummary.fromJson(row.summary());
        Map<String, String> hosts = new LinkedHashMap<>(before == null ? Map.of() : before.hostsGivenUp());
        hosts.putAll(givenUp);
        // A cluster job's time is its wall time: its nodes' running times overlap.
        double active = row.cluster() && row.finishedAt() != null
                ? Duration.between(row.createdAt(), row.finishedAt()).toMillis() / 1000.0 : row.activeSeconds();
        double seconds = Math.round(active * 1000) / 1000.0;
        long requests = t.fetchMillis().size() + t.retries();
        List<JobSummary.TopFailure> top = t.topFailures().stream()
                .map(f -> new JobSummary.TopFailure(f.kind(), f.detail(), f.count())).toList();
        return new JobSummary(id, status.label(), config.execution().mode().label(), config.execution().poolSize(),
                config.politeness().perHostConcurrency(), t.pages(), t.failed(), t.skipped(), t.bytes(), seconds,
                seconds <= 0 ? 0 : round1(requests / seconds), t.statuses(), t.failures(), t.skips(), top,
                firstOf(hosts, 20), Latency.ofMillis(t.fetchMillis()), Latency.ofMillis(t.pageMillis()),
                t.retries(), Math.max(before == null ? 0 : before.peakPlatformThreads(), peakThreadsHere),
                Math.round(row.cpuSeconds() * 100) / 100.0, Math.max(1, row.runs()));
    }

    static Map<String, String> firstOf(Map<String, String> map, int n) {
        Map<String, String> out = new LinkedHashMap<>();
        map.entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(n)
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    public static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
