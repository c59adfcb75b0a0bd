package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.Deadlines;
import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.fetch.HostNames;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ForwardProxy;
import dev.loomcrawl.crawler.values.ProcessStats;
import dev.loomcrawl.crawler.values.StoredListener;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * The parts every job of a {@link Crawler} shares, opened with it and closed with it.
 *
 * @param proxy the forward proxy every fetch goes through, or null
 * @param tls the certificates https servers may show
 */
record Engine(PageStore store, HostGates gates, FetchLimit limit, RuntimeSampler sampler, Tally totals,
        HostNames names, List<StoredListener> observers, Deadlines deadlines, ExecutorService parsers,
        @Nullable ForwardProxy proxy, TlsTrust tls) {

    /**
     * A host answered with a {@code Retry-After} of {@code rest} (zero: none): the window is stored, so that
     * a process killed inside it keeps out of it when it starts again ({@link #restoreRests}).
     */
    void rested(String hostKey, Duration rest) {
        if (!rest.isZero()) {
            store.jobs().restHost(hostKey, Instant.now().plus(rest));
        }
    }

    /** The windows an earlier process stored that are still open, in force again for every job. */
    void restoreRests() {
        Instant now = Instant.now();
        long nanoNow = System.nanoTime();
        store.jobs().hostRests().forEach((hostKey, until) ->
                gates.rest(hostKey, nanoNow + Duration.between(now, until).toNanos()));
    }

    /** The least the adaptive limit holds: enough to keep a few hundred slow hosts busy whatever the CPU. */
    private static final int MIN_IN_FLIGHT = 256;

    /** The engine of a crawler on {@code store}: gates, limits and threads made, rests of an earlier process restored. */
    static Engine open(PageStore store, CrawlerOptions options) {
        FetchLimit limit = new FetchLimit(MIN_IN_FLIGHT, options.maxInFlight(), options.adaptiveInFlight(), store::behind);
        Engine engine = new Engine(store, new HostGates(options.perHost(), options.adaptivePoliteness(), limit::busy),
                limit, new RuntimeSampler(), new Tally(null), HostNames.JVM, new CopyOnWriteArrayList<>(),
                new Deadlines(), CrawlThreads.parsers(), options.proxy(), options.tls());
        engine.restoreRests();
        return engine;
    }

    /** The whole process's figures, every job ({@code runningJobs} of them now) and one-off fetch together. */
    ProcessStats stats(int runningJobs) {
        Tally t = totals;
        return new ProcessStats(t.pages(), t.failed(), t.skipped(), t.fetches(), t.fetching(), t.retries(), t.statuses(),
                t.failures(), t.latency(), RuntimeSampler.livePlatformThreads(), RuntimeSampler.peakPlatformThreads(),
                sampler.virtualThreadsStarted(), limit.limit(), JobMeter.round1(limit.lagMillis()), gates.busiest(10),
                runningJobs, t.changes());
    }

    /** Lets go of the engine's threads; parses still running end first. */
    void close() {
        limit.close();
        sampler.close();
        deadlines.close();
        parsers.close();
    }
}
