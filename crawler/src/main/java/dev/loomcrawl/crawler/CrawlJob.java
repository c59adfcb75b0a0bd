package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchSettings;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.fetch.WarcOutput;
import dev.loomcrawl.crawler.fetch.WebhookClient;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.politeness.PolitenessAudit;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.revisit.WebhookDelivery;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.JobStatus;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One crawl: its {@link Dispatcher} hands each URL the frontier leases out to the executor of the job's
 * {@link ExecutionMode}, and each URL runs as one blocking task, {@link UrlTask#crawl}: fetch under its host's
 * permit, parse, store with its links, lease ended. This class is the job's handle: start, suspend, cancel,
 * its status and figures, and its end written to the store.
 */
public final class CrawlJob {
    private static final int WAITING_SHOWN = 3;
    /** The shortest rest or pause the job says it waits for: the recent rate's window, and the log's interval. */
    private static final Duration WAIT_SHOWN = Duration.ofSeconds(5);
    private final long id;
    private final CrawlConfig config;
    private final Engine engine;
    private final Frontier frontier;
    private final JobMeter meter;
    private final Harvester harvester;
    private final boolean resumed;
    private final boolean cluster;
    /** Whose figures the stored politeness audit holds ({@link JobStart#share}). */
    private final String share;
    private final Consumer<CrawlJob> onEnd;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile JobStatus status = JobStatus.QUEUED;
    private volatile boolean cancelRequested;
    private volatile boolean suspendRequested;
    private volatile boolean stopNow;
    private volatile @Nullable String failureMessage;
    private volatile @Nullable JobSummary summary;
    private final JobCheckpoint checkpoints;
    private final Fetcher fetcher;
    private final PolitenessAudit audit;
    private final @Nullable WarcOutput warc;
    private final Dispatcher dispatcher;

    /** @param onEnd told when the job has ended here */
    CrawlJob(Engine engine, JobStart start, Consumer<CrawlJob> onEnd) {
        this.id = start.id();
        this.config = start.config();
        this.engine = engine;
        this.frontier = start.frontier();
        this.meter = start.meter();
        this.resumed = start.resumed();
        this.cluster = start.cluster();
        this.share = start.share();
        this.onEnd = onEnd;
        this.warc = start.warc();
        this.audit = new PolitenessAudit(engine.gates(), config.politeness().politenessKey());
        if (resumed || cluster) { // a job's audit goes on from what its earlier runs (this share's) stored
            audit.restore(engine.store().politeness().audit(id, share));
        }
        this.fetcher = new Fetcher(FetchSettings.of(config, engine.proxy(), engine.tls()), engine.names(),
                engine.deadlines(), audit);
        this.harvester = new Harvester(id, config, frontier, start.hooks().handler(), engine.parsers());
        UrlTask task = new UrlTask(start, engine, harvester, fetcher, audit, () -> cancelRequested);
        this.dispatcher = new Dispatcher(start, engine, task, () -> cancelRequested, () -> stopNow);
        this.checkpoints = new JobCheckpoint(id, share, meter, audit, engine.store());
    }

    void start() {
        status = JobStatus.RUNNING;
        Thread.ofVirtual().name("crawl-dispatch-" + id).start(this::run);
    }

    private void run() {
        meter.start(engine.sampler());
        JobStatus end = JobStatus.DONE;
        Freshness.Webhook webhook = config.freshness().webhook();
        WebhookDelivery delivery = webhook == null ? null : WebhookDelivery.start(id, share, webhook,
                engine.store().changes(), new WebhookClient(engine.tls(), config.fetch().refusePrivateAddresses()));
        try {
            frontier.seed(config.scope().seeds());
            dispatcher.run(); // what follows writes to the store: from here on no interrupt may come
            engine.store().flush();
            end = cancelRequested ? JobStatus.CANCELLED : JobStatus.DONE;
        } catch (InterruptedException e) {
            end = JobStatus.CANCELLED;
        } catch (RuntimeException e) {
            failureMessage = e.getMessage();
            end = JobStatus.FAILED;
        } finally {
            fetcher.close();
            if (warc != null) {
                warc.close();
            }
            if (delivery != null) {
                delivery.jobOver(stopNow || suspendRequested && end != JobStatus.CANCELLED);
            }
            finish(end);
        }
    }

    private void finish(JobStatus end) {
        meter.finish();
        PageStore store = engine.store();
        boolean suspended = (suspendRequested || stopNow) && !cancelRequested && end != JobStatus.FAILED;
        JobStatus stored = suspended ? JobStatus.SUSPENDED : end; // a suspended job stays resumable
        try {
            checkpoint();
            if (cluster) {
                // This node's share ended; the job's status and summary are the cluster's (ClusterNode).
                summary = meter.summary(id, end == JobStatus.FAILED ? end : JobStatus.RUNNING, config,
                        frontier.givenUpHosts());
                return;
            }
            summary = summarise(stored);
            if (stored == JobStatus.DONE && summary.pages() == 0) {
                // a crawl that found nothing failed: one state for the CLI's exit code, the API and the dashboard
                failureMessage = summary.whyNoPage();
                stored = JobStatus.FAILED;
                summary = summarise(stored);
            }
            store.jobs().update(id, stored.label(), summary.toJson());
        } catch (RuntimeException e) {
            if (summary == null) {
                summary = meter.summary(id, stored, config, frontier.givenUpHosts());
            }
            failureMessage = failureMessage != null ? failureMessage : "could not store the job's end: " + e.getMessage();
        } finally {
            status = stored;
            onEnd.accept(this); // dropped from the crawler's running jobs before anyone waiting is told
            finished.countDown();
        }
    }

    private JobSummary summarise(JobStatus stored) {
        return resumed
                ? JobMeter.wholeJob(engine.store(), id, stored, config, meter.peakPlatformThreads(), frontier.givenUpHosts())
                : meter.summary(id, stored, config, frontier.givenUpHosts());
    }

    /** Writes the job's checkpoint ({@link JobCheckpoint}): every {@link JobRow#CHECKPOINT} while it runs, and at its end. */
    void checkpoint() {
        checkpoints.write();
    }

    /** URLs waiting in this job's queues, by what limits their host's requests. */
    Map<Target, Integer> queuedByHost() {
        return frontier.queuedByHost();
    }

    /** What this run of the job asked of each politeness key, so far (a resumed job's earlier runs included). */
    public List<KeyAudit> politeness() {
        return audit.figures();
    }

    /** Stops the job promptly: nothing new is dispatched, fetches in progress are interrupted. Idempotent. */
    public void cancel() {
        cancelRequested = true;
        frontier.cancel();
        dispatcher.interrupt();
    }

    /**
     * Stops dispatching and lets fetches in progress finish and be stored, leaving the job unfinished in
     * the store so that the next start resumes it. For a graceful shutdown; see {@link #await}.
     */
    public void suspend() {
        suspendRequested = true;
        frontier.drain();
    }

    /**
     * Stops at once, like a cancel, but leaves the job resumable: fetches in progress are interrupted and
     * fetched again by the next start. For a graceful stop whose grace has run out.
     */
    void suspendNow() {
        stopNow = true;
        frontier.drain();
        dispatcher.interrupt();
    }

    /** Waits for the job to end; returns false if {@code timeout} passed first. */
    public boolean await(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits for the job to end (or be suspended) and returns its summary. */
    public JobSummary awaitSummary() throws InterruptedException {
        finished.await();
        return summary();
    }

    public long id() {
        return id;
    }

    /** Whether this is a process's share of a cluster job. */
    public boolean cluster() {
        return cluster;
    }

    public CrawlConfig config() {
        return config;
    }

    public JobStatus status() {
        return status;
    }

    /** Whether the job was suspended rather than ended: it stays resumable. */
    public boolean suspended() {
        return finished.getCount() == 0 && status == JobStatus.SUSPENDED;
    }

    /** Why the job failed, if it did. */
    public Optional<String> failureMessage() {
        return Optional.ofNullable(failureMessage);
    }

    /** The final summary once ended, else this run's figures so far. */
    public JobSummary summary() {
        JobSummary done = summary;
        return done != null ? done : meter.summary(id, status, config, frontier.givenUpHosts());
    }

    /**
     * Why hosts of a running job go slower than their turn and its limits promise, each host with why, three at
     * most of each; both empty once it has ended.
     *
     * @param waiting hosts whose URLs wait for something other than their turn: a robots.txt that fails and is
     *     tried again, a rest the server asked for ({@code Retry-After}) or an operator's pause with {@link
     *     #WAIT_SHOWN} or more left. A crawl that seems idle says so. A shorter rest is routine (a faulty site's
     *     429s come and go by the second) and within the window of the recent rate, which an ETA reads.
     * @param heldBack hosts that adaptive politeness has held below their limit, all they are allowed in flight, for
     *     {@link #WAIT_SHOWN} or more: a crawl slower than its per-host limit says why. Their URLs go on at the pace
     *     their servers' answers set, which the recent rate and an ETA read.
     */
    public record Waits(Map<String, String> waiting, Map<String, String> heldBack) {
        public static final Waits NONE = new Waits(Map.of(), Map.of());
    }

    /** What the job's hosts wait for ({@link Waits}): one look at the hosts with URLs queued. */
    public Waits waits() {
        if (status.finished()) {
            return Waits.NONE;
        }
        Map<String, String> waiting = new TreeMap<>(frontier.robotsRetrying());
        Map<String, String> heldBack = new TreeMap<>();
        long now = System.nanoTime();
        long shown = WAIT_SHOWN.toNanos();
        for (Target target : frontier.queuedByHost().keySet()) {
            String held = engine.gates().held(target, now, shown);
            if (held != null) {
                waiting.putIfAbsent(target.hostKey(), held);
            }
            String back = engine.gates().heldBack(target, now, shown);
            if (back != null) {
                heldBack.putIfAbsent(target.hostKey(), back);
            }
        }
        return new Waits(first(waiting), first(heldBack));
    }

    /** The first {@value #WAITING_SHOWN} hosts of {@code why}, in host order. */
    private static Map<String, String> first(Map<String, String> why) {
        Map<String, String> first = new LinkedHashMap<>();
        why.entrySet().stream().limit(WAITING_SHOWN).forEach(e -> first.put(e.getKey(), e.getValue()));
        return first;
    }

    /**
     * How many bytes of the job's WARC file are whole records, while it runs here (its file's whole length once
     * it has ended); empty for a job without one.
     */
    public OptionalLong warcBytes() {
        return warc == null ? OptionalLong.empty() : OptionalLong.of(warc.wholeBytes());
    }

    /** Where the job's webhook stands, as the store has it; null for a job without one. */
    public @Nullable WebhookStatus webhook() {
        return config.freshness().webhook() == null ? null : engine.store().changes().webhook(id);
    }

    public JobProgress progress() {
        boolean continuous = config.freshness().revisit() != null;
        int queued = frontier.queued();
        return meter.progress(id, status.label(), queued, continuous ? frontier.due() : queued, frontier.inFlight(),
                config.scope().maxPages(), continuous);
    }
}
