package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.content.MainContent;
import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.FetchSettings;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.parse.PageParser;
import dev.loomcrawl.crawler.parse.RobotsDirectives;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Permit;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.politeness.RobotsFetch;
import dev.loomcrawl.crawler.politeness.RobotsMemo;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.FetchOutcome;
import dev.loomcrawl.crawler.values.FetchRequest;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The seed benchmarks' {@code handle(request)} pattern: fetch many URLs at once, one virtual thread each,
 * wait for all of them or the deadline, whichever comes first. Each fetch waits for its host's permit the
 * plain blocking way, {@link HostGates#enter}: the same process-wide permits that crawl jobs take, so a
 * one-off fetch never adds a request to a host already at its limit. Each host's robots.txt is obeyed as a
 * crawl obeys it, unless the request says otherwise.
 */
final class FetchBatch implements AutoCloseable {
    private final Engine engine;
    /** The politeness key the fetches count under (the process's default). */
    private final PolitenessKey kind;
    /** A fetcher for each {@code refusePrivateAddresses}, made on first use. */
    private final ConcurrentHashMap<Boolean, Fetcher> fetchers = new ConcurrentHashMap<>();
    private final RobotsMemo robots = new RobotsMemo();
    private final String agentToken = Robots.productToken(CrawlConfig.DEFAULT_USER_AGENT);

    FetchBatch(Engine engine, PolitenessKey kind) {
        this.engine = engine;
        this.kind = kind;
    }

    /** See {@link Crawler#fetchAll}. */
    List<FetchOutcome> fetchAll(FetchRequest request) throws InterruptedException {
        boolean refuse = request.refusePrivateAddresses();
        Fetcher fetcher = fetchers.computeIfAbsent(refuse, r -> {
            CrawlConfig defaults = CrawlConfig.builder().seed("http://localhost/").refusePrivateAddresses(r).build();
            return new Fetcher(FetchSettings.of(defaults, engine.proxy(), engine.tls()), engine.names(),
                    engine.deadlines());
        });
        List<Callable<FetchOutcome>> tasks = new ArrayList<>(request.urls().size());
        for (CrawlUrl url : request.urls()) {
            tasks.add(() -> request.respectRobots() ? fetchAllowed(fetcher, url, request.content())
                    : fetchOne(fetcher, url, request.content()));
        }
        List<Future<FetchOutcome>> futures;
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(CrawlThreads.counting(
                Thread.ofVirtual().name("fetch-vt-", 0).factory(), engine.sampler().threadsStarted()))) {
            // invokeAll cancels (interrupts) whatever has not finished when the deadline passes.
            futures = executor.invokeAll(tasks, request.deadline().toNanos(), TimeUnit.NANOSECONDS);
        }
        List<FetchOutcome> outcomes = new ArrayList<>(futures.size());
        for (int i = 0; i < futures.size(); i++) {
            outcomes.add(outcomeOf(request.urls().get(i), futures.get(i), request.deadline()));
        }
        return outcomes;
    }

    @Override
    public void close() {
        fetchers.values().forEach(Fetcher::close);
    }

    private FetchOutcome outcomeOf(CrawlUrl url, Future<FetchOutcome> future, Duration deadline)
            throws InterruptedException {
        try {
            return future.get();
        } catch (CancellationException e) {
            // a host resting for its server's Retry-After, or paused by an operator, is why more often than not
            String held = engine.gates().held(Target.of(url), System.nanoTime(), 0);
            return FetchOutcome.without(url.url(), "cancelled", 0, 0, deadline.toMillis(), null,
                    "not finished within " + deadline.toMillis() + " ms" + (held == null ? "" : ": " + held));
        } catch (ExecutionException e) {
            // a bug of ours for this one URL: say so for it, answer for the others
            return FetchOutcome.without(url.url(), "failed", 0, 0, 0, FailureKind.INTERNAL.label(),
                    "internal error: " + e.getCause());
        }
    }

    /** {@code url} fetched if its host's robots.txt allows it; else a {@code skipped} outcome that says why. */
    private FetchOutcome fetchAllowed(Fetcher fetcher, CrawlUrl url, ContentRequest content)
            throws InterruptedException {
        long start = System.nanoTime();
        RobotsMemo.Verdict verdict = robots.check(url, page -> {
            Permit permit = engine.gates().enter(Target.of(page), kind);
            RobotsFetch.Answer outcome = null;
            engine.totals().fetchStarted();
            try {
                outcome = RobotsFetch.fetch(fetcher, page, agentToken, null);
                return outcome;
            } finally {
                engine.totals().fetchUncounted();
                engine.gates().exit(permit, 0, 0, outcome != null && outcome.failure() != null);
            }
        });
        double millis = (System.nanoTime() - start) / 1e6;
        if (verdict.unreachable() != null) { // RFC 9309 2.3.1.4: assume a complete disallow
            FetchResult.Failed f = verdict.unreachable();
            return FetchOutcome.without(url.url(), "failed", f.status(), 0, millis, f.kind().label(),
                    "robots.txt could not be fetched, so no page of the host is (RFC 9309): " + f.detail());
        }
        if (verdict.refusal() != null) {
            return FetchOutcome.without(url.url(), "skipped", 0, 0, millis, FailureKind.ROBOTS.label(),
                    verdict.refusal());
        }
        return fetchOne(fetcher, url, content);
    }

    private FetchOutcome fetchOne(Fetcher fetcher, CrawlUrl url, ContentRequest content)
            throws InterruptedException {
        long start = System.nanoTime();
        Permit permit = engine.gates().enter(Target.of(url), kind);
        FetchResult result = null;
        engine.totals().fetchStarted();
        try {
            result = fetcher.fetch(url, Fetcher.Purpose.PAGE);
        } finally {
            engine.totals().fetchEnded(result == null ? 0 : result.nanos());
            RetryPolicy.HostSignal signal = result == null ? RetryPolicy.HostSignal.OK : RetryPolicy.signal(result);
            Duration rest = signal.rest();
            engine.gates().exit(permit, rest.isZero() ? 0 : System.nanoTime() + rest.toNanos(), signal.nanos(),
                    signal.trouble() != null); // exchange only
            engine.rested(url.hostKey(), rest);
        }
        double millis = (System.nanoTime() - start) / 1e6;
        return switch (result) {
            case FetchResult.Response r -> {
                String detail = !r.redirect() ? null : Harvester.redirectDetail(
                        r.location().map(location -> CrawlUrl.check(location, url.web())).orElse(null));
                if (!r.html() || r.body().length == 0) {
                    yield new FetchOutcome(url.url(), "ok", r.status(), null, r.body().length, millis, null, detail,
                            RobotsDirectives.ofHeaders(r.headers(), agentToken).noindex(), null);
                }
                PageParser.Parsed page = PageParser.parse(engine.parsers(), r.body(), r.charset().orElse(null),
                        url.url(), agentToken, PageParser.Headers.of(r.headers()), content);
                MainContent.Extracted extracted = page.content();
                detail = Harvester.joined(Harvester.joined(detail, r.cutNote()),
                        extracted == null ? null : extracted.problem());
                yield new FetchOutcome(url.url(), "ok", r.status(), page.title(), r.body().length, millis, null, detail,
                        page.robots().noindex(),
                        extracted == null ? null : extracted.content());
            }
            case FetchResult.Failed f -> FetchOutcome.without(url.url(), "failed", f.status(), f.bytes(), millis,
                    f.kind().label(), f.detail());
        };
    }
}
