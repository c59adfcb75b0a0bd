package dev.loomcrawl.crawler.store;

import java.time.Instant;

/**
 * A job as stored.
 *
 * @param config the job's whole configuration as JSON ({@code CrawlConfig}'s codec)
 * @param summary the summary JSON once the job has ended (or was suspended), else null
 * @param activeSeconds crawl time summed over every process that ran the job
 * @param cpuSeconds process CPU time summed likewise
 * @param runs how many times a process started or resumed the job
 * @param cluster whether nodes of a cluster share the job through the database
 */
public record JobRow(long id, Instant createdAt, Instant finishedAt, String status, String mode, int poolSize,
        String config, String summary, double activeSeconds, double cpuSeconds, int runs, boolean cluster) {

    public boolean unfinished() {
        return status.equals("queued") || status.equals("running");
    }
}
