package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.parse.PageParser;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Permit;
import dev.loomcrawl.crawler.politeness.PolitenessKey;
import dev.loomcrawl.crawler.politeness.RetryPolicy;
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
 * one-off fetch never adds a request to a host already at its limit.
 */
final class FetchBatch implements AutoCloseable {
    private final Engine engine;
    /** The politeness key the fetches count under (the process's default). */
    private final PolitenessKey level;
    /** A fetcher for each {@code refusePrivateAddresses}, made on first use. */
    private final ConcurrentHashMap<Boolean, Fetcher> fetchers = new ConcurrentHashMap<>();

    FetchBatch(Engine engine, PolitenessKey level) {
        this.engine = engine;
        this.level = level;
    }

    /** See {@link Crawler#fetchAll}. */
    List<FetchOutcome> fetchAll(List<CrawlUrl> urls, Duration deadline, boolean refusePrivateAddresses)
            throws InterruptedException {
        Fetcher fetcher = fetchers.computeIfAbsent(refusePrivateAddresses, refuse -> {
            CrawlConfig defaults = CrawlConfig.builder().seed("http://localhost/").refusePrivateAddresses(refuse).build();
            return new Fetcher(Fetcher.Settings.of(defaults), engine.names(), engine.deadlines());
        });
        return run(fetcher, engine, level, urls, deadline);
    }

    @Override
    public void close() {
        fetchers.values().forEach(Fetcher::close);
    }

    private static List<FetchOutcome> run(Fetcher fetcher, Engine engine, PolitenessKey level, List<CrawlUrl> urls,
            Duration deadline) throws InterruptedException {
        List<Callable<FetchOutcome>> tasks = new ArrayList<>(urls.size());
        for (CrawlUrl url : urls) {
            tasks.add(() -> fetchOne(fetcher, engine, level, url));
        }
        List<Future<FetchOutcome>> futures;
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(ExecutionMode.counting(
                Thread.ofVirtual().name("fetch-vt-", 0).factory(), engine.sampler().threadsStarted()))) {
            // invokeAll cancels (interrupts) whatever has not finished when the deadline passes.
            futures = executor.invokeAll(tasks, deadline.toNanos(), TimeUnit.NANOSECONDS);
        }
        List<FetchOutcome> outcomes = new ArrayList<>(urls.size());
        for (int i = 0; i < urls.size(); i++) {
            outcomes.add(outcomeOf(urls.get(i), futures.get(i), deadline));
        }
        return outcomes;
    }

    private static FetchOutcome outcomeOf(CrawlUrl url, Future<FetchOutcome> future, Duration deadline)
            throws InterruptedException {
        try {
            return future.get();
        } catch (CancellationException e) {
            return new FetchOutcome(url.url(), "cancelled", 0, null, 0, deadline.toMillis(), null,
                    "not finished within " + deadline.toMillis() + " ms");
        } catch (ExecutionException e) {
            // a bug of ours for this one URL: say so for it, answer for the others
            return new FetchOutcome(url.url(), "failed", 0, null, 0, 0, FailureKind.INTERNAL.label(),
                    "internal error: " + e.getCause());
        }
    }

    private static FetchOutcome fetchOne(Fetcher fetcher, Engine engine, PolitenessKey level, CrawlUrl url)
            throws InterruptedException {
        long start = System.nanoTime();
        Permit permit = engine.gates().enter(HostGates.Target.of(url), level);
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
                String title = r.html() && r.body().length > 0
                        ? PageParser.parse(engine.parsers(), r.body(), r.charset().orElse(null), url.url(), null).title() : null;
                yield new FetchOutcome(url.url(), "ok", r.status(), title, r.body().length, millis, null,
                        r.redirect() ? "redirect to " + r.location().orElse("nowhere") : null);
            }
            case FetchResult.Failed f -> new FetchOutcome(url.url(), "failed", f.status(), null, f.bytes(), millis,
                    f.kind().label(), f.detail());
        };
    }
}
