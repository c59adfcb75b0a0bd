package dev.loomcrawl.crawler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The seed benchmarks' {@code handle(request)} pattern: fetch many URLs at once, one virtual thread each,
 * wait for all of them or the deadline, whichever comes first. Each fetch waits for its host's permit the
 * plain blocking way, {@link HostLimiter#acquire}, which on a virtual thread costs no platform thread.
 */
final class FetchBatch {
    private FetchBatch() {}

    static List<FetchOutcome> run(Fetcher fetcher, HostLimiter limiter, CrawlTotals totals, List<CrawlUrl> urls,
            Duration deadline) throws InterruptedException {
        List<Callable<FetchOutcome>> tasks = new ArrayList<>(urls.size());
        for (CrawlUrl url : urls) {
            tasks.add(() -> fetchOne(fetcher, limiter, totals, url));
        }
        List<Future<FetchOutcome>> futures;
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(
                ExecutionMode.counting(Thread.ofVirtual().name("fetch-vt-", 0).factory()))) {
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
            throw new IllegalStateException("fetch of " + url + " failed unexpectedly", e.getCause());
        }
    }

    private static FetchOutcome fetchOne(Fetcher fetcher, HostLimiter limiter, CrawlTotals totals, CrawlUrl url)
            throws InterruptedException {
        long start = System.nanoTime();
        limiter.acquire(url.hostKey());
        FetchResult result;
        totals.fetchStarted();
        try {
            result = fetcher.fetch(url);
        } finally {
            totals.fetchEnded();
            limiter.release(url.hostKey()); // the permit covers the exchange only
        }
        double millis = (System.nanoTime() - start) / 1e6;
        return switch (result) {
            case FetchResult.Fetched f -> {
                totals.record(f.status(), false, f.nanos());
                String title = f.body().length == 0 ? null : PageParser.parse(f.body(), url.url()).title();
                yield new FetchOutcome(url.url(), "ok", f.status(), title, f.body().length, millis, null,
                        f.location() == null ? null : "redirect to " + f.location());
            }
            case FetchResult.Failed f -> {
                totals.record(f.status(), true, f.nanos());
                yield new FetchOutcome(url.url(), "failed", f.status(), null, 0, millis, f.kind().label(), f.detail());
            }
        };
    }
}
