package dev.loomcrawl.crawler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One crawl: a dispatcher hands each URL the frontier releases to the executor of the job's
 * {@link ExecutionMode}, and each URL runs as one blocking task: fetch under its host permit, parse,
 * store, offer the new links.
 */
public final class CrawlJob {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final long id;
    private final CrawlConfig config;
    private final PageStore store;
    private final HostLimiter limiter;
    private final Frontier frontier;
    private final CrawlStats stats;
    private final Set<String> scopeHosts;
    private final boolean anyHost;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile JobStatus status = JobStatus.QUEUED;
    private volatile boolean cancelRequested;
    private volatile String failureMessage;
    private volatile CrawlSummary summary;
    /** Set when the job is being resumed after a restart. */
    private final PageStore.ResumeState resumed;
    /** Stop without ending the job: it stays 'running' in the database and resumes at the next start. */
    private volatile boolean suspendRequested;

    /** Told once the job has ended (or been suspended) and its final state is stored. */
    private final java.util.function.Consumer<CrawlJob> onEnd;

    CrawlJob(long id, CrawlConfig config, PageStore store, CrawlTotals totals, PageStore.ResumeState resumed,
            java.util.function.Consumer<CrawlJob> onEnd) {
        this.id = id;
        this.onEnd = onEnd;
        this.resumed = resumed;
        this.stats = new CrawlStats(totals, resumed == null ? 0 : resumed.pages(), resumed == null ? 0 : resumed.failed());
        this.config = config;
        this.store = store;
        this.limiter = new HostLimiter(config.perHostConcurrency());
        this.frontier = new Frontier(limiter, config);
        this.anyHost = config.allowedHosts().contains("*");
        this.scopeHosts = config.allowedHosts().isEmpty()
                ? config.seeds().stream().map(CrawlUrl::host).collect(Collectors.toUnmodifiableSet())
                : config.allowedHosts();
    }

    void start() {
        Thread.ofVirtual().name("crawl-dispatch-" + id).start(this::run);
    }

    private void run() {
        status = JobStatus.RUNNING;
        store.updateJob(id, status, null);
        stats.start();
        JobStatus end = JobStatus.DONE;
        try (Fetcher fetcher = new Fetcher(config)) {
            if (resumed != null) {
                frontier.restore(resumed);
            }
            for (CrawlUrl seed : config.seeds()) {
                persist(frontier.seed(seed)); // a seed already known (resumed) admits nothing
            }
            dispatch(fetcher);
            store.flush();
            end = cancelRequested ? JobStatus.CANCELLED : JobStatus.DONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end = JobStatus.CANCELLED;
        } catch (RuntimeException e) {
            failureMessage = e.getMessage();
            end = JobStatus.FAILED;
        } finally {
            stats.finish();
            if (suspendRequested && end != JobStatus.FAILED) {
                status = JobStatus.RUNNING; // unfinished on purpose: the next start resumes it
                summary = stats.summary(id, JobStatus.RUNNING, config);
                finished.countDown();
                onEnd.accept(this);
                return;
            }
            status = end;
            summary = stats.summary(id, end, config);
            try {
                store.updateJob(id, end, JSON.writeValueAsString(summary));
            } catch (JsonProcessingException | RuntimeException e) {
                failureMessage = "could not store the summary: " + e.getMessage();
            } finally {
                finished.countDown();
                onEnd.accept(this);
            }
        }
    }

    private void dispatch(Fetcher fetcher) throws InterruptedException {
        // try-with-resources: close() waits for every running task before the job is declared over.
        try (ExecutorService executor = config.mode().newExecutor(config.poolSize())) {
            Frontier.Lease lease;
            while ((lease = frontier.next()) != null) {
                Frontier.Lease task = lease;
                executor.execute(() -> crawl(fetcher, task));
            }
            if (cancelRequested) {
                executor.shutdownNow(); // interrupts fetches in progress; their URLs are not stored
            }
            // On suspend, close() lets fetches in progress finish and store: a graceful stop.
        }
    }

    /** One URL, start to end, in plain blocking style. */
    private void crawl(Fetcher fetcher, Frontier.Lease lease) {
        try {
            switch (lease.kind()) {
                case PAGE -> fetchPage(fetcher, lease);
                case ROBOTS -> fetchRobots(fetcher, lease);
                case SKIP -> store(lease, record(lease, 0, null, null, 0, 0, 0, lease.failure(), lease.reason()), -1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cancelled: end quietly, nothing half-stored
        } finally {
            frontier.done(lease);
        }
    }

    private void fetchRobots(Fetcher fetcher, Frontier.Lease lease) throws InterruptedException {
        Robots.Rules rules = null;
        int attempt = frontier.robotsAttempts(lease) + 1;
        try {
            rules = Robots.from(lease.url(), fetcher.fetchRobots(lease.url()), attempt);
        } finally {
            frontier.robotsFetched(lease, rules, rules == null ? Robots.backoffNanos(attempt) : 0);
        }
    }

    private void fetchPage(Fetcher fetcher, Frontier.Lease lease) throws InterruptedException {
        FetchResult result;
        Frontier.Outcome outcome = null; // stays null if the fetch did not finish (cancelled)
        stats.fetchStarted();
        try {
            result = fetcher.fetch(lease.url());
            lease.node().attempts++;
            outcome = outcomeOf(lease, result);
        } finally {
            stats.fetchEnded();
            // The permit covers the exchange only, not parse and store. A rest the server asked for is in
            // place before the permit is free, so no other URL of the host slips out in between.
            frontier.release(lease, outcome);
        }
        if (cancelRequested) {
            return;
        }
        if (outcome.retry()) {
            stats.retried();
            frontier.retry(lease); // stored when its last attempt is over
            return;
        }
        PageRecord page = switch (result) {
            case FetchResult.Fetched fetched -> pageOf(lease, fetched);
            case FetchResult.Failed failed -> record(lease, failed.status(), failed.contentType(), null, 0, 0,
                    failed.nanos(), failed.kind().label(), failed.detail());
        };
        store(lease, page, result.nanos());
    }

    /** Retry or not, how long the host rests, and whether this counts against the host. */
    private Frontier.Outcome outcomeOf(Frontier.Lease lease, FetchResult result) {
        if (!(result instanceof FetchResult.Failed failed)) {
            return Frontier.Outcome.OK;
        }
        boolean trouble = RetryPolicy.serverTrouble(failed);
        if (RetryPolicy.retryable(failed) && lease.node().attempts <= config.maxRetries()) {
            java.time.Duration pause = RetryPolicy.pause(failed, lease.node().attempts);
            if (pause != null) {
                return new Frontier.Outcome(true, pause.toNanos(), trouble, failed.kind().label());
            }
        }
        long rest = failed.retryAfter() == null ? 0 // no more tries, but the host asked for a rest: give it
                : Math.min(failed.retryAfter().toNanos(), RetryPolicy.MAX_RETRY_AFTER.toNanos());
        return new Frontier.Outcome(false, rest, trouble, failed.kind().label());
    }

    private void store(Frontier.Lease lease, PageRecord page, long fetchNanos) throws InterruptedException {
        store.save(page);
        stats.record(page, fetchNanos, System.nanoTime() - lease.dispatchedNanos());
    }

    /** Queues newly admitted URLs for storage, ahead of the page that found them. */
    private void persist(List<Frontier.Node> admitted) {
        if (admitted.isEmpty()) {
            return;
        }
        List<PageStore.Admitted> rows = new ArrayList<>(admitted.size());
        for (Frontier.Node node : admitted) {
            rows.add(new PageStore.Admitted(id, node.url.url(), node.depth, node.redirects));
        }
        try {
            store.admitted(rows);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cancelled: the page will not be stored either
        }
    }

    private PageRecord pageOf(Frontier.Lease lease, FetchResult.Fetched fetched) {
        if (fetched.location() != null || fetched.status() >= 300) {
            followRedirect(lease, fetched.location());
            return record(lease, fetched.status(), fetched.contentType(), null, 0, 0, fetched.nanos(), null,
                    fetched.location() == null ? "redirect without Location" : "redirect to " + fetched.location());
        }
        PageParser.Parsed parsed = PageParser.parse(fetched.body(), lease.url().url());
        List<CrawlUrl> links = new ArrayList<>(parsed.links().size());
        for (String link : parsed.links()) {
            CrawlUrl.parse(link).filter(this::inScope).ifPresent(links::add);
        }
        persist(frontier.expand(lease, links));
        return record(lease, fetched.status(), fetched.contentType(), parsed.title(), fetched.body().length,
                parsed.textLength(), fetched.nanos(), null, null);
    }

    private void followRedirect(Frontier.Lease lease, String location) {
        if (location == null || lease.redirects() >= config.maxRedirects()) {
            return;
        }
        try {
            String target = URI.create(lease.url().url()).resolve(location.strip()).toString();
            CrawlUrl.parse(target).filter(this::inScope).ifPresent(url -> persist(frontier.redirect(lease, url)));
        } catch (IllegalArgumentException e) {
            // an unusable Location is recorded in the page's detail and not followed
        }
    }

    private boolean inScope(CrawlUrl url) {
        return (anyHost || scopeHosts.contains(url.host())) && !TrapFilter.looksLikeTrap(url);
    }

    private PageRecord record(Frontier.Lease lease, int status, String contentType, String title, int bytes,
            int textLength, long fetchNanos, String failure, String detail) {
        return new PageRecord(id, lease.url().url(), lease.depth(), status, contentType, title, bytes, textLength,
                fetchNanos / 1e6, lease.node().attempts, failure, detail, Instant.now(), Thread.currentThread().getName());
    }

    /** Stops the job promptly: nothing new is dispatched, fetches in progress are interrupted. Idempotent. */
    public void cancel() {
        cancelRequested = true;
        frontier.close();
    }

    /**
     * Stops dispatching and lets fetches in progress finish and be stored, leaving the job unfinished in
     * the database so that the next start resumes it. For a graceful shutdown; see {@link #await}.
     */
    public void suspend() {
        suspendRequested = true;
        frontier.drain();
    }

    /** Waits for the job to end; returns false if {@code timeout} passed first. */
    public boolean await(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits for the job to end and returns its summary. */
    public CrawlSummary awaitSummary() throws InterruptedException {
        finished.await();
        return summary;
    }

    public long id() {
        return id;
    }

    public CrawlConfig config() {
        return config;
    }

    public JobStatus status() {
        return status;
    }

    /** Why the job failed, if it did. */
    public Optional<String> failureMessage() {
        return Optional.ofNullable(failureMessage);
    }

    /** The final summary once finished, else the figures so far. */
    public CrawlSummary summary() {
        CrawlSummary done = summary;
        return done != null ? done : stats.summary(id, status, config);
    }

    public CrawlProgress progress() {
        return new CrawlProgress(id, status.label(), stats.pages(), stats.failed(), frontier.queued(),
                frontier.inFlight(), stats.fetching(), stats.seconds(), stats.pagesPerSecond());
    }

    /** Hosts with the most permits in use right now. */
    public Map<String, Integer> busiestHosts(int limit) {
        return limiter.busiest(limit);
    }
}
