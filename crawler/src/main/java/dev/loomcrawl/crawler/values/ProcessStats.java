package dev.loomcrawl.crawler.values;

import java.util.Map;

/**
 * The whole process's figures, as {@code GET /stats} and the metrics show them.
 *
 * @param fetching requests in flight right now, jobs and one-off fetches
 * @param fetchLimit how many the adaptive limit allows now
 * @param carrierLagMillis how late a probe virtual thread wakes: the queue our own CPU makes
 * @param changes change events by kind, continuous jobs and recrawls
 */
public record ProcessStats(long pages, long failed, long skipped, long fetches, long fetching, long retries,
        Map<String, Long> statuses, Map<String, Long> failures, Latency latencyMs, int livePlatformThreads,
        int peakPlatformThreads, long virtualThreadsStarted, int fetchLimit, double carrierLagMillis,
        Map<String, Integer> busiestHosts, int runningJobs, Map<String, Long> changes) {}
