package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.StoredCounts;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job as its crawler reports it: from the running job when this process runs it, else from the store.
 *
 * @param progress live figures while it runs; the final ones once ended; null if it never ran here and
 *     left no summary
 * @param summary the whole job's summary once it has ended (or was suspended), else null
 * @param cluster whether nodes of a cluster share the job
 * @param nodes each node's share of a cluster job, else null
 * @param waiting while it runs here, hosts whose URLs wait for something other than their turn, with why
 *     ({@link CrawlJob.Waits#waiting}); else empty
 * @param heldBack while it runs here, hosts adaptive politeness holds below their limit, with why
 *     ({@link CrawlJob.Waits#heldBack}); else empty
 * @param webhook where the job's webhook stands, as the store has it; null for a job without one
 * @param kept what the job keeps besides its rows
 */
public record JobReport(long id, String status, String mode, int poolSize, List<String> seeds, Instant createdAt,
        @Nullable Instant finishedAt, @Nullable JobProgress progress, @Nullable JobSummary summary, boolean cluster,
        @Nullable List<Share> nodes, Map<String, String> waiting, Map<String, String> heldBack,
        @Nullable WebhookStatus webhook, Kept kept) {

    /** One node's share of a cluster job, as {@code GET /crawl/{id}} shows it. */
    public record Share(String node, long pages, long failed, long skipped, long fetches, int inFlight, boolean live) {}

    /**
     * What a job keeps besides its rows, as its config says.
     *
     * @param content its pages' main content ({@code --content})
     * @param warcFile its WARC file, else null
     */
    public record Kept(boolean content, @Nullable String warcFile) {
        public static Kept of(JobRow row) {
            return new Kept(ConfigCodec.keepsContent(row.config()), ConfigCodec.warcFile(row.config()));
        }
    }

    /**
     * A job as its row shows it, with the live figures of {@code live} while it runs in this process. A job
     * no process runs here and that ended without a summary (its process was killed) is counted from its
     * stored rows: what the database holds, not zeros.
     */
    static JobReport of(JobRow row, @Nullable CrawlJob live, PageStore store) {
        boolean soleUser = store.soleUser();
        JobSummary stored = JobSummary.fromJson(row.summary());
        List<String> seeds = ConfigCodec.seeds(row.config());
        if (live != null) {
            JobProgress progress = live.progress();
            boolean ended = live.status().finished();
            CrawlJob.Waits waits = live.waits();
            return new JobReport(row.id(), live.status().label(), row.mode(), row.poolSize(), seeds, row.createdAt(),
                    ended ? row.finishedAt() : null, progress, ended ? live.summary() : null, row.cluster(), null,
                    waits.waiting(), waits.heldBack(), live.webhook(), Kept.of(row));
        }
        String status = row.shownStatus(Instant.now(), soleUser);
        StoredCounts.@Nullable Outcomes rows = null;
        double seconds = 0;
        double rate = 0;
        if (row.status().equals(JobStatus.RUNNING.label()) || stored == null && row.unfinished()) {
            // killed, or run by another process: any summary is an earlier run's, so count what is stored
            rows = store.outcomes(row.id());
            seconds = Math.round(row.activeSeconds() * 10) / 10.0;
            rate = seconds <= 0 ? 0 : JobMeter.round1(rows.pages() / seconds);
        } else if (stored != null) {
            rows = new StoredCounts.Outcomes(stored.pages(), stored.failed(), stored.skipped(), stored.failures());
            seconds = stored.seconds();
            rate = stored.pagesPerSecond();
        }
        JobProgress progress = rows == null ? null : new JobProgress(row.id(), status, rows.pages(), rows.failed(),
                rows.skipped(), 0, 0, 0, 0, seconds, rate, 0,
                ConfigCodec.maxPages(row.config()), ConfigCodec.continuous(row.config()), rows.failures(), Map.of());
        return new JobReport(row.id(), status, row.mode(), row.poolSize(), seeds, row.createdAt(),
                row.finishedAt(), progress, stored, row.cluster(), null, Map.of(), Map.of(), webhook(row, store),
                Kept.of(row));
    }

    /** Where the webhook of the job in {@code row}, run by no process here, stands; null when it has none. */
    public static @Nullable WebhookStatus webhook(JobRow row, PageStore store) {
        return ConfigCodec.hasWebhook(row.config()) ? store.changes().webhook(row.id()) : null;
    }
}
