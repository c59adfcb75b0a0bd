package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.JobMeter;
import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ClusterView;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.NodeSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/** What a cluster node says of the cluster: its jobs summed over every node, the nodes and their leases. */
final class ClusterReports {
    private static final ClusterStore.Work NO_WORK = new ClusterStore.Work("", 0, 0, 0, 0, 0, 0);

    private final ClusterStore db;
    private final PageStore store;
    private final NodeSettings settings;
    /** Per job, what this node had reported in earlier runs, before this run's share began. */
    private final ConcurrentHashMap<Long, ClusterStore.Work> earlier = new ConcurrentHashMap<>();
    // Held while this node's figures for its jobs are written: a job's last report is never followed by an
    // older one the heartbeat read before the job ended.
    private final ReentrantLock reporting = new ReentrantLock();

    ClusterReports(ClusterStore db, PageStore store, NodeSettings settings) {
        this.db = db;
        this.store = store;
        this.settings = settings;
    }

    /**
     * This node starts its share of a job. What it did for the job in earlier runs (a process killed and
     * started again keeps its node id) is read first: this run's figures are reported on top of it.
     */
    void began(long id) {
        earlier.put(id, db.work(id).stream().filter(w -> w.nodeId().equals(settings.nodeId())).findFirst()
                .orElse(NO_WORK));
    }

    /** Each running share's figures on this node, for the whole job's progress on any node (every heartbeat). */
    void write(List<CrawlJob> shares) {
        reporting.lock();
        try {
            shares.forEach(this::writeWork);
        } finally {
            reporting.unlock();
        }
    }

    /**
     * A share has ended: its figures as they stand at the end, then {@code forget} runs. Without this last
     * report the job's shares kept what the heartbeat had written up to half a second before: the work of a
     * node's last beat went missing from them.
     */
    void ended(CrawlJob job, Runnable forget, BiConsumer<String, RuntimeException> trouble) {
        reporting.lock();
        try {
            writeWork(job);
        } catch (RuntimeException e) {
            trouble.accept("the last report of job " + job.id(), e); // its share stays as the heartbeat last wrote it
        } finally {
            forget.run();
            earlier.remove(job.id()); // a later share of the job reads what this one reported
            reporting.unlock();
        }
    }

    private void writeWork(CrawlJob job) {
        JobProgress p = job.progress();
        ClusterStore.Work before = earlier.getOrDefault(job.id(), NO_WORK);
        db.reportWork(job.id(), settings.nodeId(), before.fetches() + p.pages() + p.failed(), (int) p.inFlight());
    }

    /**
     * A cluster job's progress summed over nodes, from the database, with each node's share. The shares count the
     * rows as they are committed, so their sum is the job's rows, without a read of them; URLs still to fetch are
     * counted while the job is unfinished (an ended job has none).
     */
    JobReport report(JobRow row, @Nullable CrawlJob live) {
        ClusterStore.Waiting waiting = row.unfinished() ? db.waiting(row.id()) : new ClusterStore.Waiting(0, 0);
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        List<JobReport.Share> shares = new ArrayList<>();
        long inFlight = 0;
        long[] rows = new long[3]; // pages, failed, skipped
        for (ClusterStore.Work w : db.work(row.id())) {
            boolean liveNode = w.ageSeconds() < ttl;
            shares.add(new JobReport.Share(w.nodeId(), w.pages(), w.failed(), w.skipped(), w.fetches(), liveNode ? w.inFlight() : 0, liveNode));
            inFlight += liveNode ? w.inFlight() : 0;
            rows[0] += w.pages();
            rows[1] += w.failed();
            rows[2] += w.skipped();
        }
        JobSummary summary = row.unfinished() ? null : JobSummary.fromJson(row.summary());
        if (summary == null && row.status().equals("done")) {
            // Marked done by a heartbeat whose summary is not written yet: the summary it is writing, so a
            // reader never sees a done job without one.
            summary = wholeJobSummary(row);
        }
        double seconds = Math.max(0.001, Duration.between(row.createdAt(),
                row.finishedAt() != null ? row.finishedAt() : Instant.now()).toMillis() / 1000.0);
        long stored = rows[0] + rows[1] + rows[2];
        JobProgress here = live == null ? null : live.progress();
        String status = live != null ? row.status() : row.shownStatus(java.time.Instant.now(), false);
        JobProgress progress = new JobProgress(row.id(), status, rows[0], rows[1], rows[2],
                waiting.queued(), waiting.due(), inFlight, here == null ? 0 : here.fetching(), JobMeter.round1(seconds),
                JobMeter.round1(stored / seconds), here == null ? 0 : here.recentPagesPerSecond(),
                ConfigCodec.maxPages(row.config()), ConfigCodec.continuous(row.config()), summary != null ? summary.failures() : Map.of(), Map.of());
        CrawlJob.Waits waits = live == null ? CrawlJob.Waits.NONE : live.waits();
        return new JobReport(row.id(), status, row.mode(), row.poolSize(), ConfigCodec.seeds(row.config()),
                row.createdAt(), row.finishedAt(), progress, summary, true, shares, waits.waiting(), waits.heldBack(),
                JobReport.webhook(row, store), JobReport.Kept.of(row));
    }

    /** The cluster's nodes and leases. */
    ClusterView view() {
        double ttl = settings.leaseTtl().toMillis() / 1000.0;
        List<ClusterView.NodeView> nodes = db.leases().nodes().stream().map(n -> new ClusterView.NodeView(n.nodeId(),
                n.address(), n.startedAt(), n.heartbeatAt(), JobMeter.round1(n.heartbeatAgeSeconds()),
                n.heartbeatAgeSeconds() < ttl, n.pages(), n.fetching(), n.hosts())).toList();
        return new ClusterView(settings.nodeId(), ttl, nodes, db.leases().leaseRows());
    }

    /** Writes a job the heartbeat marked done its summary, the whole job's. */
    void writeSummary(long id) {
        store.jobs().find(id).ifPresent(row -> store.jobs().update(id, JobStatus.DONE.label(), wholeJobSummary(row).toJson()));
    }

    private JobSummary wholeJobSummary(JobRow row) {
        return JobMeter.wholeJob(store, row.id(), JobStatus.DONE, ConfigCodec.fromJson(row.config()), 0, Map.of());
    }
}
