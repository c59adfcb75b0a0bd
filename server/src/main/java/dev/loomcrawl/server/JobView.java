package dev.loomcrawl.server;

import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job as the API shows it: the crawler's report, with links to its sub-resources; {@code markdown} and
 * {@code warc} for a job that keeps them.
 */
record JobView(long id, String status, String mode, int poolSize, List<String> seeds, Instant createdAt,
        @Nullable Instant finishedAt, @Nullable JobProgress progress, @Nullable JobSummary summary, boolean cluster,
        @Nullable List<JobReport.Share> nodes, Map<String, String> waiting, Map<String, String> heldBack,
        @Nullable WebhookStatus webhook, Map<String, String> links) {

    /** @param node this server's cluster node settings, or null: a cluster job's WARC link is to this node's part */
    static JobView of(JobReport r, WarcFiles warcs, @Nullable NodeSettings node) {
        String self = "/crawl/" + r.id();
        Map<String, String> links = new LinkedHashMap<>();
        links.put("self", self);
        links.put("pages", self + "/pages");
        links.put("export", self + "/export?format=jsonl");
        links.put("links", self + "/links?format=jsonl");
        if (r.kept().content()) {
            links.put("markdown", self + "/export?format=markdown");
        }
        if (warcs.served(r.kept().warcFile(), r.cluster(), node) != null) {
            links.put("warc", self + "/warc");
        }
        return new JobView(r.id(), r.status(), r.mode(), r.poolSize(), r.seeds(), r.createdAt(), r.finishedAt(),
                r.progress(), r.summary(), r.cluster(), r.nodes(), r.waiting(), r.heldBack(), r.webhook(), links);
    }
}
