package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.fetch.SitemapReader;
import dev.loomcrawl.crawler.fetch.WarcOutput;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.parse.Harvester;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.RetryPolicy;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.politeness.RobotsFetch;
import dev.loomcrawl.crawler.store.JobRow;
import dev.loomcrawl.crawler.store.PageRecord;
import dev.loomcrawl.crawler.store.PageStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One crawl: a dispatcher hands each URL the frontier leases out to the executor of the job's
 * {@link ExecutionMode}, and each URL runs as one blocking task, {@link #crawl}: fetch under its host's
 * permit, parse, store with its links, lease ended.
 */
public final class CrawlJob {
    private static final System.Logger LOG = System.getLogger(CrawlJob.class.getName());
    private final long id;
    private final CrawlConfig config;
    private final Crawler.Engine engine;
    private final Frontier frontier;
    private final JobStats stats;
    private final Harvester harvester;
    private final boolean resumed;
    private final boolean cluster;
    private final Consumer<CrawlJob> onEnd;
    private final StoredListener listener;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile JobStatus status = JobStatus.QUEUED;
    private volatile boolean cancelRequested;
    private volatile boolean suspendRequested;
    private volatile boolean stopNow;
    private volatile String failureMessage;
    private volatile CrawlSummary summary;
    /** The dispatcher while it may be interrupted: only while it dispatches, never while it writes the store. */
    private Thread interruptible; // guarded by interruptGuard
    private final ReentrantLock interruptGuard = new ReentrantLock();
    /** This run's time already added to the job's row: a checkpoint adds what came since. */
    private double recordedSeconds; // guarded by checkpointLock
    private double recordedCpu; // guarded by checkpointLock
    private final ReentrantLock checkpointLock = new ReentrantLock();
    private final Fetcher fetcher;
    private final WarcOutput warc;

    /** @param warc where fetches are archived, opened by the caller so that a bad path fails the start; or null */
    /**
     * @param cluster nodes of a cluster share the job: this process runs its share, and the cluster, not
     *     this run's end, decides the job's status
     */
    CrawlJob(long id, CrawlConfig config, Crawler.Engine engine, Frontier frontier, JobStats stats,
            Crawler.Hooks hooks, WarcOutput warc, boolean resumed, boolean cluster, Consumer<CrawlJob> onEnd) {
        this.id = id;
        this.listener = hooks.listener();
        this.fetcher = new Fetcher(Fetcher.Settings.of(config), engine.names(), engine.deadlines());
        this.warc = warc;
        this.config = config;
        this.engine = engine;
        this.frontier = frontier;
        this.stats = stats;
        this.harvester = new Harvester(id, config, frontier, hooks.handler(), engine.parsers());
        this.resumed = resumed;
        this.cluster = cluster;
        this.onEnd = onEnd;
    }

    void start() {
        status = JobStatus.RUNNING;
        Thread.ofVirtual().name("crawl-dispatch-" + id).start(this::run);
    }

    private void run() {
        stats.start(engine.sampler());
        JobStatus end = JobStatus.DONE;
        try {
            frontier.seed(config.scope().seeds());
            interruptible(Thread.currentThread());
            if (cancelRequested || stopNow) {
                throw new InterruptedException("stopped before the first dispatch");
            }
            dispatch();
            interruptible(null);
            engine.store().flush();
            end = cancelRequested ? JobStatus.CANCELLED : JobStatus.DONE;
        } catch (InterruptedException e) {
            end = JobStatus.CANCELLED;
        } catch (RuntimeException e) {
            failureMessage = e.getMessage();
            end = JobStatus.FAILED;
        } finally {
            interruptible(null); // what follows writes to the store: from here on no interrupt may come
            fetcher.close();
            if (warc != null) {
                warc.close();
            }
            finish(end);
        }
    }

    private void dispatch() throws InterruptedException {
        // try-with-resources: close() waits for every running task before the job is declared over.
        CrawlConfig.Execution execution = config.execution();
        try (ExecutorService executor = execution.mode().newExecutor(execution.poolSize(),
                engine.sampler().threadsStarted())) {
            try {
                while (!cancelRequested) {
                    FetchLimit.Slot slot = engine.limit().acquire();
                    Lease lease;
                    try {
                        lease = frontier.next(slot);
                    } finally {
                        if (cancelRequested) {
                            slot.close(); // a lease handed out now is closed below, unrun: nothing is lost
                        }
                    }
                    if (lease == null) {
                        slot.close();
                        break;
                    }
                    try {
                        executor.execute(() -> crawl(lease));
                    } catch (RejectedExecutionException e) {
                        lease.close(); // never run: its permits are freed, its URL is queued again
                        if (Thread.interrupted() || cancelRequested) {
                            throw new InterruptedException("cancelled while waiting for a free pool thread");
                        }
                        throw new IllegalStateException("the executor refused a task: " + e.getMessage(), e);
                    }
                }
            } catch (InterruptedException e) {
                executor.shutdownNow(); // cancelled: interrupt fetches in progress; their URLs are not stored
                throw e;
            }
            if (cancelRequested || stopNow) {
                executor.shutdownNow();
            }
            // On suspend, close() lets fetches in progress finish and be stored: a graceful stop.
        }
    }

    /** One URL, start to end, in plain blocking style: lease, fetch, parse, store with links, lease ended. */
    private void crawl(Lease lease) {
        try (lease) {
            try {
                crawlLeased(lease);
            } catch (RuntimeException | StackOverflowError e) {
                // Caught here, inside the lease: a try-with-resources closes its resource before its own catch
                // clauses run, and a lease closed unfinished puts its URL back in the queue. Caught outside, the
                // failure below was never stored and the URL was fetched again, and failed again, for ever: one
                // link crawler-commons' normaliser threw on kept a job running (RealWebTest).
                internalFailure(lease, e);
            }
        } catch (Fetcher.NotSent e) {
            // Closed without an outcome (no attempt counted, nothing asked of the server): the URL waits its turn again.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cancelled: end quietly, nothing half-stored
        } catch (RuntimeException e) {
            // Closing the lease threw: it only updates the frontier's own state, so this is a bug of ours, with no
            // lease left to record the URL under. Said, and the task ends; the job goes on.
            LOG.log(System.Logger.Level.ERROR, "job " + id + ": a URL's task failed after its outcome", e);
        }
    }

    private void crawlLeased(Lease lease) throws InterruptedException, Fetcher.NotSent {
        BooleanSupplier mayStart = mayStart(lease);
        BooleanSupplier late = mayStartLate(mayStart);
        Lease.Skip skip = lease.skip();
        if (skip == null && lease.robotsUnknown()) {
            if (!mayStart.getAsBoolean() || !robots(lease, late)) {
                return; // robots.txt could not be had, or no request may start now: the URL waits its turn again
            }
            skip = lease.skip();
        }
        if (skip != null) {
            store(lease, harvester.skipped(lease, skip), List.of());
            return;
        }
        if (!mayStart.getAsBoolean()) {
            return; // the URL waits its turn again
        }
        FetchResult result = fetch(lease, late);
        Duration retryIn = RetryPolicy.retryIn(result, lease.attempt(), config.politeness().maxRetries());
        if (retryIn != null) {
            stats.tally().retried();
            lease.retry(retryIn);
            return;
        }
        Harvester.Harvest harvest = harvester.harvest(lease, result);
        archive(lease, result);
        store(lease, harvest.page(), harvest.links());
    }

    /** A bug of ours: the URL is recorded as failed and the job goes on; never a stuck job. */
    private void internalFailure(Lease lease, Throwable e) {
        if (cancelRequested || engine.store().failed()) {
            return; // the store itself failed: the job fails with it, see run()
        }
        try {
            store(lease, harvester.internalFailure(lease, e), List.of());
        } catch (InterruptedException | RuntimeException again) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether a request of this lease may start now: not while its host rests (a {@code Retry-After} that came
     * in from another request after this lease was handed out binds this one too), and on a cluster node only
     * while its lease on the host has a whole fetch's time left.
     */
    private BooleanSupplier mayStart(Lease lease) {
        HostGates gates = engine.gates();
        String hostKey = lease.url().hostKey();
        return () -> !gates.resting(hostKey) && lease.mayStart();
    }

    /**
     * What the fetcher asks once more as each request is about to leave (see {@code Fetcher.StartCheck}): on a
     * cluster node, it narrows the window in which a node frozen after the first question still sends the
     * request when it wakes, beside the host's new owner, and it covers the HTTP client's own retries. Null in
     * one process: there the late question bought nothing measurable (requests inside a {@code Retry-After}
     * window on {@code rough}: 110 against 128 a run over 6 cold runs each, within the noise), and each GET
     * would carry {@code Content-Length: 0}.
     */
    private BooleanSupplier mayStartLate(BooleanSupplier mayStart) {
        return cluster ? mayStart : null;
    }

    /** @param late asked as the request leaves, or null (see {@link #mayStartLate}) */
    private FetchResult fetch(Lease lease, BooleanSupplier late) throws InterruptedException, Fetcher.NotSent {
        FetchResult result = null;
        boolean notSent = false;
        stats.tally().fetchStarted();
        try {
            String hostKey = lease.url().hostKey();
            // A Retry-After rests the host the moment the headers are in, not once this task has read the body
            // and had its turn on a carrier again: fewer requests slip out meanwhile. (exchangeOver sets it again.)
            result = fetcher.fetch(lease.url(), Fetcher.Purpose.PAGE,
                    rest -> engine.gates().rest(hostKey, System.nanoTime() + rest.toNanos()), late);
            return result;
        } catch (Fetcher.NotSent e) {
            notSent = true;
            throw e;
        } finally {
            if (notSent) {
                stats.tally().fetchNotSent(); // the lease's close() frees its permit as unused
            } else {
                stats.tally().fetchEnded(result == null ? 0 : result.nanos());
                // The fetch limit's latency signal: a page request's own time, answered with any status (robots.txt
                // and sitemaps, fetched under the same slot, are left out; so are failures without an answer).
                if (result != null && result.answered()) {
                    engine.limit().answered(result.nanos());
                }
                RetryPolicy.HostSignal signal = result == null ? RetryPolicy.HostSignal.OK : RetryPolicy.signal(result);
                engine.rested(lease.url().hostKey(), signal.rest());
                lease.exchangeOver(signal);
            }
        }
    }

    /**
     * Fetches the host's robots.txt under the lease's permit; false if it could not be had.
     *
     * @param late asked as each request leaves (redirects and sitemaps included), or null
     */
    private boolean robots(Lease lease, BooleanSupplier late) throws InterruptedException, Fetcher.NotSent {
        RobotsFetch.Outcome outcome = RobotsFetch.fetch(fetcher, lease.url(),
                Robots.productToken(config.fetch().userAgent()),
                late);
        if (outcome.rules() == null) {
            lease.robotsUnreachable(outcome.failure());
            return false;
        }
        lease.robots(outcome.rules());
        if (config.scope().sitemaps()) {
            SitemapReader.Listed listed = SitemapReader.read(fetcher, lease.url(), outcome.rules(), late);
            if (!listed.urls().isEmpty()) {
                counted(lease, lease.listed(harvester.links(listed.urls()), listed.firstSitemap()));
            }
        }
        return true;
    }

    private void store(Lease lease, PageRecord page, List<Lease.Found> links) throws InterruptedException {
        counted(lease, lease.complete(page, links));
    }

    /** Rows the store now has: into the figures, and to the listener. */
    private void counted(Lease lease, List<PageRecord> stored) {
        for (PageRecord row : stored) {
            stats.stored(row, System.nanoTime() - lease.leasedNanos());
            if (listener != null) {
                listener.stored(row);
            }
            for (StoredListener observer : engine.observers()) {
                observer.stored(row);
            }
        }
    }

    private void archive(Lease lease, FetchResult result) {
        if (warc == null) {
            return;
        }
        switch (result) {
            case FetchResult.Response r -> warc.write(fetcher.request(lease.url()), r.status(), r.headers(),
                    r.raw() == null ? r.body() : r.raw(), Instant.now());
            case FetchResult.Failed f when f.answered() -> warc.write(fetcher.request(lease.url()), f.status(),
                    f.headers(), f.raw() == null ? new byte[0] : f.raw(), Instant.now());
            case FetchResult.Failed f -> { } // no response to record
        }
    }

    private void finish(JobStatus end) {
        stats.finish();
        PageStore store = engine.store();
        boolean suspended = (suspendRequested || stopNow) && !cancelRequested && end != JobStatus.FAILED;
        JobStatus stored = suspended ? JobStatus.SUSPENDED : end; // a suspended job stays resumable
        try {
            checkpoint();
            if (cluster) {
                // This node's share ended; the job's status and summary are the cluster's (ClusterNode).
                summary = stats.summary(id, end == JobStatus.FAILED ? end : JobStatus.RUNNING, config, frontier.givenUpHosts());
                return;
            }
            summary = resumed ? Summaries.wholeJob(store, id, stored, config, stats, frontier.givenUpHosts())
                    : stats.summary(id, stored, config, frontier.givenUpHosts());
            store.updateJob(id, stored.label(), Summaries.json(summary));
        } catch (RuntimeException e) {
            if (summary == null) {
                summary = stats.summary(id, stored, config, frontier.givenUpHosts());
            }
            failureMessage = failureMessage != null ? failureMessage : "could not store the job's end: " + e.getMessage();
        } finally {
            status = stored;
            onEnd.accept(this); // dropped from the crawler's running jobs before anyone waiting is told
            finished.countDown();
        }
    }

    /**
     * Marks the dispatcher interruptible ({@code thread}) or not ({@code null}). Leaving, it clears any interrupt
     * that came in: a cancel after this sees no dispatcher, so no interrupt reaches the job's store writes.
     */
    private void interruptible(Thread thread) {
        interruptGuard.lock();
        try {
            interruptible = thread;
            if (thread == null) {
                Thread.interrupted();
            }
        } finally {
            interruptGuard.unlock();
        }
    }

    /** Wakes the dispatcher if it is dispatching (it may be waiting for a fetch slot); otherwise nothing. */
    private void interruptDispatcher() {
        interruptGuard.lock();
        try {
            if (interruptible != null) {
                interruptible.interrupt();
            }
        } finally {
            interruptGuard.unlock();
        }
    }

    /**
     * Adds this run's time since the last checkpoint to the job's row, and stamps it alive: called every
     * {@link JobRow#CHECKPOINT} while the job runs and once at its end, so that a process killed with SIGKILL
     * loses at most one interval of the job's time, and a job whose process died is shown as interrupted.
     */
    void checkpoint() {
        checkpointLock.lock();
        try {
            double seconds = stats.seconds();
            double cpu = Math.max(0, stats.cpuSeconds());
            engine.store().addRunTime(id, seconds - recordedSeconds, Math.max(0, cpu - recordedCpu), false);
            recordedSeconds = seconds;
            recordedCpu = Math.max(recordedCpu, cpu);
        } finally {
            checkpointLock.unlock();
        }
    }

    /** Stops the job promptly: nothing new is dispatched, fetches in progress are interrupted. Idempotent. */
    public void cancel() {
        cancelRequested = true;
        frontier.cancel();
        interruptDispatcher();
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
        interruptDispatcher();
    }

    /** Waits for the job to end; returns false if {@code timeout} passed first. */
    public boolean await(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits for the job to end (or be suspended) and returns its summary. */
    public CrawlSummary awaitSummary() throws InterruptedException {
        finished.await();
        return summary;
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
    public CrawlSummary summary() {
        CrawlSummary done = summary;
        return done != null ? done : stats.summary(id, status, config, frontier.givenUpHosts());
    }

    /** Hosts whose URLs wait for something other than their turn (a failing robots.txt), with why. */
    public java.util.Map<String, String> waitingHosts() {
        return frontier.waitingHosts();
    }

    public CrawlProgress progress() {
        return stats.progress(id, status.label(), frontier.queued(), frontier.inFlight(), config.scope().maxPages());
    }
}
