package dev.loomcrawl.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.CrawlProgress;
import dev.loomcrawl.crawler.PageStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A job as the API shows it: from the running job when there is one, else from the database. */
record JobView(long id, String status, String mode, int poolSize, List<String> seeds, Instant createdAt,
        Instant finishedAt, Progress progress, JsonNode summary, Map<String, String> links) {

    /** Live figures; for a finished job, the final ones. */
    record Progress(long pages, long failed, long queued, long inFlight, long fetching, double seconds,
            double pagesPerSecond) {}

    static JobView of(PageStore.JobRow row, Optional<CrawlJob> live, ObjectMapper json) {
        JsonNode spec = parse(row.spec(), json);
        List<String> seeds = new ArrayList<>();
        if (spec != null && spec.has("seeds")) {
            spec.get("seeds").forEach(s -> seeds.add(s.asText()));
        }
        Progress progress = null;
        JsonNode summary = parse(row.summary(), json);
        String status = row.status();
        Instant finishedAt = row.finishedAt();
        if (live.isPresent()) {
            CrawlJob job = live.get();
            CrawlProgress p = job.progress();
            status = job.status().label();
            progress = new Progress(p.pages(), p.failed(), p.queued(), p.inFlight(), p.fetching(), p.seconds(),
                    p.pagesPerSecond());
            if (job.status().finished()) {
                summary = json.valueToTree(job.summary());
                finishedAt = finishedAt == null ? Instant.now() : finishedAt;
            }
        } else if (summary != null && summary.has("pages")) {
            progress = new Progress(summary.get("pages").asLong(), summary.get("failed").asLong(), 0, 0, 0,
                    summary.get("seconds").asDouble(), summary.get("pagesPerSecond").asDouble());
        }
        String self = "/crawl/" + row.id();
        return new JobView(row.id(), status, row.mode(), row.poolSize(), seeds, row.createdAt(), finishedAt, progress,
                summary, Map.of("self", self, "pages", self + "/pages", "export", self + "/export?format=jsonl"));
    }

    private static JsonNode parse(String text, ObjectMapper json) {
        if (text == null || text.isBlank() || !text.startsWith("{")) {
            return null;
        }
        try {
            return json.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }
}
