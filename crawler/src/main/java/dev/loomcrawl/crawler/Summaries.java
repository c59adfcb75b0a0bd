package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.StoredCounts;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlSummary;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.Latency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The summary of a job that more than one process ran: counts and latencies from its stored rows, times summed over its runs, the peak of its peaks.
 */
public final class Summaries {
    private Summaries() {}

    public static CrawlSummary wholeJob(PageStore store, long id, JobStatus status, CrawlConfig config, JobStats run,
            Map<String, String> givenUp) {
        StoredCounts t = store.storedCounts(id);
        JobRow row = store.jobs().find(id).orElseThrow();
        CrawlSummary before = CrawlSummary.fromJson(row.summary());
        Map<String, String> hosts = new LinkedHashMap<>(before == null ? Map.of() : before.hostsGivenUp());
        hosts.putAll(givenUp);
        // A cluster job's time is its wall time: its nodes' running times overlap.
        double active = row.cluster() && row.finishedAt() != null
                ? java.time.Duration.between(row.createdAt(), row.finishedAt()).toMillis() / 1000.0 : row.activeSeconds();
        double seconds = Math.round(active * 1000) / 1000.0;
        long requests = t.fetchMillis().size() + t.retries();
        List<CrawlSummary.TopFailure> top = t.topFailures().stream()
                .map(f -> new CrawlSummary.TopFailure(f.kind(), f.detail(), f.count())).toList();
        return new CrawlSummary(id, status.label(), config.execution().mode().label(), config.execution().poolSize(),
                config.politeness().perHostConcurrency(), t.pages(), t.failed(), t.skipped(), t.bytes(), seconds,
                seconds <= 0 ? 0 : JobStats.round1(requests / seconds), t.statuses(), t.failures(), t.skips(), top,
                JobStats.firstOf(hosts, 20), Latency.ofMillis(t.fetchMillis()), Latency.ofMillis(t.pageMillis()),
                t.retries(), Math.max(before == null ? 0 : before.peakPlatformThreads(), run.peakPlatformThreads()),
                Math.round(row.cpuSeconds() * 100) / 100.0, Math.max(1, row.runs()));
    }
}
