package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.fetch.SitemapReader;
import dev.loomcrawl.crawler.fetch.WarcOutput;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.politeness.PolitenessAudit;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.politeness.RobotsFetch;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.StoredListener;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The life of one URL, read top to bottom in {@link #crawl}: robots.txt if its host's is not known yet, the
 * fetch, parse and extraction, then the lease ended with exactly one outcome (stored with its links, retried,
 * or put back). One per job; its tasks run on the job's executor, a virtual thread or a pool thread each.
 */
final class UrlTask {
    private static final System.Logger LOG = System.getLogger(UrlTask.class.getName());

    /** Whether a request asks the lease once more as it leaves (a cluster node: see {@link #mayStartLate}). */
    enum LateCheck { ASK, NONE }

    private final long id;
    private final CrawlConfig config;
    private final Engine engine;
    private final JobMeter meter;
    private final Harvester harvester;
    private final Fetcher fetcher;
    private final PolitenessAudit audit;
    private final @Nullable WarcOutput warc;
    private final @Nullable StoredListener listener;
    private final LateCheck lateCheck;
    private final BooleanSupplier cancelled;

    /** @param cancelled whether the job was cancelled: a result that comes back then is not stored */
    UrlTask(JobStart start, Engine engine, Harvester harvester, Fetcher fetcher, PolitenessAudit audit,
            BooleanSupplier cancelled) {
        this.id = start.id();
        this.config = start.config();
        this.engine = engine;
        this.meter = start.meter();
        this.harvester = harvester;
        this.fetcher = fetcher;
        this.audit = audit;
        this.warc = start.warc();
        this.listener = start.hooks().listener();
        this.lateCheck = start.cluster() ? LateCheck.ASK : LateCheck.NONE;
        this.cancelled = cancelled;
    }

    /** One URL, start to end, in plain blocking style: lease, fetch, parse, store with links, lease ended. */
    void crawl(Lease lease) {
        try (lease) {
            try {
                crawlLeased(lease);
            } catch (RuntimeException | StackOverflowError e) {
                // Caught here, inside the lease: a try-with-resources closes its resource before its own catch
                // clauses run, and a lease closed unfinished puts its URL back in the queue. Caught outside, the
                // failure below would never be stored and the URL would be fetched and fail again, for ever,
                // keeping its job running (RealWebTest).
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
        BooleanSupplier mayStart = lease::mayStart;
        BooleanSupplier late = mayStartLate(mayStart);
        Lease.Skip skip = lease.skip();
        if (skip == null && lease.robotsUnknown()) {
            if (!mayStart.getAsBoolean() || !robots(lease, late)) {
                return; // robots.txt could not be had, or no request may start now: the URL waits its turn again
            }
            skip = lease.skip();
        }
        if (skip != null) {
            store(lease, RetryPolicy.HostSignal.OK, harvester.skipped(lease, skip), List.of());
            return;
        }
        if (!mayStart.getAsBoolean()) {
            return; // the URL waits its turn again
        }
        FetchResult result = fetch(lease, late);
        RetryPolicy.HostSignal exchange = RetryPolicy.signal(result);
        engine.rested(lease.url().hostKey(), exchange.rest());
        Duration retryIn = RetryPolicy.retryIn(result, lease.charged(exchange), config.politeness().maxRetries());
        if (retryIn != null) {
            meter.tally().retried();
            lease.retry(exchange, retryIn);
            return;
        }
        Harvester.Harvest harvest = harvester.harvest(lease, result);
        archive(lease, result);
        store(lease, exchange, harvest.page(), harvest.links());
    }

    /** A bug of ours: the URL is recorded as failed and the job goes on; never a stuck job. */
    private void internalFailure(Lease lease, Throwable e) {
        if (cancelled.getAsBoolean() || engine.store().failed()) {
            return; // the store itself failed: the job fails with it, see run()
        }
        try {
            store(lease, RetryPolicy.HostSignal.OK, harvester.internalFailure(lease, e), List.of());
        } catch (InterruptedException | RuntimeException again) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * What the fetcher asks once more as each request is about to leave (see {@code Fetcher.StartCheck}): on a
     * cluster node, it narrows the window in which a node frozen after the first question still sends the
     * request when it wakes, beside the host's new owner, and it covers the HTTP client's own retries. Null in
     * one process: there the late question bought nothing measurable (requests inside a {@code Retry-After}
     * window on {@code rough}: 110 against 128 a run over 6 cold runs each, within the noise), and each GET
     * would carry {@code Content-Length: 0}.
     */
    private @Nullable BooleanSupplier mayStartLate(BooleanSupplier mayStart) {
        return lateCheck == LateCheck.ASK ? mayStart : null;
    }

    /** @param late asked as the request leaves, or null (see {@link #mayStartLate}) */
    private FetchResult fetch(Lease lease, @Nullable BooleanSupplier late) throws InterruptedException, Fetcher.NotSent {
        FetchResult result = null;
        boolean notSent = false;
        meter.tally().fetchStarted();
        try {
            String hostKey = lease.url().hostKey();
            // The moment the headers are in, not once this task has read the body and had its turn on a carrier
            // again: the server is done with the request (its key's adaptive limit counts what the server has in
            // hand), and a Retry-After rests the host, so fewer requests slip out meanwhile (the outcome sets it
            // again).
            Fetcher.Validators validators = lease.visit() == null ? null
                    : Fetcher.Validators.of(lease.visit().etag(), lease.visit().lastModified());
            result = fetcher.fetch(lease.url(), Fetcher.Purpose.PAGE,
                    rest -> {
                        lease.answering();
                        if (!rest.isZero()) {
                            engine.gates().rest(hostKey, System.nanoTime() + rest.toNanos());
                        }
                    }, late, validators);
            return result;
        } catch (Fetcher.NotSent e) {
            notSent = true;
            throw e;
        } finally {
            if (notSent) {
                meter.tally().fetchUncounted(); // the lease's close() frees its permit as unused
            } else {
                meter.tally().fetchEnded(result == null ? 0 : result.nanos());
                // The fetch limit's latency signal: a page request's own time, answered with any status (robots.txt
                // and sitemaps, fetched under the same slot, are left out; so are failures without an answer).
                if (result != null && result.answered()) {
                    engine.limit().answered(result.nanos());
                }
            }
        }
    }

    /**
     * Fetches the host's robots.txt under the lease's permit; false if it could not be had.
     *
     * @param late asked as each request leaves (redirects and sitemaps included), or null
     */
    private boolean robots(Lease lease, @Nullable BooleanSupplier late) throws InterruptedException, Fetcher.NotSent {
        meter.tally().fetchStarted(); // in flight as a page's request is, on the progress line and /stats
        try {
            RobotsFetch.Answer outcome = RobotsFetch.fetch(fetcher, lease.url(),
                    Robots.productToken(config.fetch().userAgent()), late);
            if (outcome.rules() == null) {
                lease.robotsUnreachable(
                        Objects.requireNonNull(outcome.failure(), "an answer without rules has its failure"));
                return false;
            }
            lease.robots(outcome.rules());
            audit.robots(lease.url(), outcome.rules());
            if (config.scope().sitemaps()) {
                Map<String, List<String>> listed = SitemapReader.read(fetcher, lease.url(), outcome.rules().sitemaps(),
                        outcome.rules()::allows, late);
                for (Map.Entry<String, List<String>> sitemap : listed.entrySet()) {
                    counted(lease, lease.listed(harvester.links(sitemap.getValue()), sitemap.getKey()));
                }
            }
            return true;
        } finally {
            meter.tally().fetchUncounted();
        }
    }

    private void store(Lease lease, RetryPolicy.HostSignal exchange, PageRecord page, List<Lease.Found> links)
            throws InterruptedException {
        counted(lease, lease.complete(exchange, page, links));
        Change change = lease.change();
        if (change != null) {
            meter.tally().changed(change);
        }
    }

    /**
     * Rows the store now has: into the figures and the audit, and to the listener. Every robots.txt refusal
     * comes through here, the leased URL's and the links recorded on sight alike.
     */
    private void counted(Lease lease, List<PageRecord> stored) {
        for (PageRecord row : stored) {
            meter.stored(row, System.nanoTime() - lease.leasedNanos());
            if (FailureKind.ROBOTS.label().equals(row.failure())) {
                audit.disallowed(row.url().equals(lease.url().url()) ? lease.url() : CrawlUrl.of(row.url()));
            }
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
                    r.raw() == null ? r.body() : r.raw(), r.cut() == FetchResult.Response.Cut.RECEIVED,
                    Instant.now());
            case FetchResult.Failed f when f.headers() instanceof HttpHeaders headers -> warc.write(
                    fetcher.request(lease.url()), f, headers, Instant.now());
            case FetchResult.Failed f -> { } // no response to record
        }
    }
}
