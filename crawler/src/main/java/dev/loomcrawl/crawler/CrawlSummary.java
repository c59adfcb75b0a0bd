package dev.loomcrawl.crawler;

import java.util.Map;

/**
 * What a job did, as reported at its end (and as far as it got, while it runs).
 *
 * @param pages URLs stored without a failure (pages and redirects)
 * @param failed URLs stored with a failure reason
 * @param pagesPerSecond HTTP fetches per second (pages, redirects, failed requests); URLs that
 *     robots.txt disallowed are stored as failed but were never requested, so they do not count
 * @param statuses stored URLs by HTTP status ("0" when no response arrived)
 * @param failures failed URLs by {@link FailureKind#label()}
 * @param latencyMs fetch latency: request start to last body byte
 * @param pageLatencyMs task latency: dispatch to stored, so time queued for a pool thread counts
 * @param retries further attempts made after retryable failures (connect, reset, 5xx, 429)
 * @param peakPlatformThreads most live platform threads in this JVM while the job ran
 * @param cpuSeconds CPU time of the whole process while the job ran (-1 if the JVM cannot tell)
 */
public record CrawlSummary(
        long jobId,
        String status,
        String mode,
        int poolSize,
        int perHostConcurrency,
        long pages,
        long failed,
        long bytes,
        double seconds,
        double pagesPerSecond,
        Map<String, Long> statuses,
        Map<String, Long> failures,
        Latency latencyMs,
        Latency pageLatencyMs,
        long retries,
        int peakPlatformThreads,
        double cpuSeconds) {}
