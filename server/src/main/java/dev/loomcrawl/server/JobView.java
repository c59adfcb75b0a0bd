package dev.loomcrawl.server;

import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A job as the API shows it: the crawler's report, with links to its sub-resources. */
record JobView(long id, String status, String mode, int poolSize, List<String> seeds, Instant createdAt,
        @Nullable Instant finishedAt, @Nullable JobProgress progress, @Nullable JobSummary summary, boolean cluster,
        @Nullable List<JobReport.Share> nodes, Map<String, String> waiting, @Nullable WebhookStatus webhook,
        Map<String, String> links) {

    static JobView of(JobReport r) {
        String self = "/crawl/" + r.id();
        return new JobView(r.id(), r.status(), r.mode(), r.poolSize(), r.seeds(), r.createdAt(), r.finishedAt(),
                r.progress(), r.summary(), r.cluster(), r.nodes(), r.waiting(), r.webhook(), Map.of("self", self, "pages", self + "/pages",
                        "export", self + "/export?format=jsonl", "links", self + "/links?format=jsonl"));
    }
}
