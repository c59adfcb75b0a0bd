package dev.loomcrawl.crawler;

import java.time.Instant;
import java.util.List;

/**
 * A job as its crawler reports it: from the running job when this process runs it, else from the store.
 *
 * @param progress live figures while it runs; the final ones once ended; null if it never ran here and
 *     left no summary
 * @param summary the whole job's summary once it has ended (or was suspended), else null
 * @param cluster whether nodes of a cluster share the job
 * @param nodes each node's share of a cluster job, else null
 */
public record JobReport(long id, String status, String mode, int poolSize, List<String> seeds, Instant createdAt,
        Instant finishedAt, CrawlProgress progress, CrawlSummary summary, boolean cluster, List<Share> nodes) {

    /** One node's share of a cluster job, as {@code GET /crawl/{id}} shows it. */
    public record Share(String node, long pages, long failed, long skipped, long fetches, int inFlight, boolean live) {}
}
