package dev.loomcrawl.crawler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.store.JobRow;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.Tallies;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Job summaries as stored (JSON), and the summary of a job that more than one process ran: counts and
 * latencies from its stored rows, times summed over its runs, the peak of its peaks.
 */
public final class Summaries {
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Summaries() {}

    public static String json(CrawlSummary summary) {
        try {
            return JSON.writeValueAsString(summary);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a summary is always writable", e);
        }
    }

    /** A stored summary, or null if there is none or it is unreadable (from a version that wrote another shape). */
    public static CrawlSummary parse(String json) {
        if (json == null || !json.startsWith("{")) {
            return null;
        }
        try {
            return JSON.readValue(json, CrawlSummary.class);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    public static CrawlSummary wholeJob(PageStore store, long id, JobStatus status, CrawlConfig config, JobStats run,
            Map<String, String> givenUp) {
        Tallies t = store.tallies(id);
        JobRow row = store.jobs().find(id).orElseThrow();
        CrawlSummary before = parse(row.summary());
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
