package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.Latency;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.jspecify.annotations.Nullable;

/**
 * Counts of stored results and requests, written by every task without locks. A job's tally passes each
 * count on to its crawler's, so the process's totals are the same code counting the same events.
 */
public final class Tally {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final @Nullable Tally parent;
    private final LongAdder pages = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder fetches = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder fetching = new LongAdder();
    private final ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> skips = new ConcurrentHashMap<>();
    /** Change events by kind ({@code new}, {@code changed}, ...): continuous jobs and recrawls. */
    private final ConcurrentHashMap<String, LongAdder> changes = new ConcurrentHashMap<>();
    private final ConcurrentHistogram fetchMicros = new ConcurrentHistogram(MAX_MICROS, 2);

    /** @param parent also counts everything counted here; null for the process's own tally */
    Tally(@Nullable Tally parent) {
        this.parent = parent;
    }

    void fetchStarted() {
        fetching.increment();
        if (parent != null) {
            parent.fetchStarted();
        }
    }

    /** A request is over (whether or not its URL is done): one more fetch, its time in the histogram. */
    void fetchEnded(long nanos) {
        fetching.decrement();
        fetches.increment();
        fetchMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1_000)));
        if (parent != null) {
            parent.fetchEnded(nanos);
        }
    }

    /**
     * A request is over that counts as no page's fetch: robots.txt and its sitemaps, or a request its start check
     * stopped before it left (see {@code Fetcher.NotSent}).
     */
    void fetchUncounted() {
        fetching.decrement();
        if (parent != null) {
            parent.fetchUncounted();
        }
    }

    void retried() {
        retries.increment();
        if (parent != null) {
            parent.retried();
        }
    }

    /** A URL's result was stored. */
    /** A visit's change event was stored. */
    void changed(Change change) {
        changes.computeIfAbsent(change.kind().label(), k -> new LongAdder()).increment();
        if (parent != null) {
            parent.changed(change);
        }
    }

    /** Change events by kind. */
    Map<String, Long> changes() {
        return sums(changes);
    }

    void stored(PageRecord page) {
        switch (page.outcome()) {
            case OK -> pages.increment();
            case FAILED -> {
                failed.increment();
                failures.computeIfAbsent(page.failure(), k -> new LongAdder()).increment();
            }
            case SKIPPED -> {
                skipped.increment();
                skips.computeIfAbsent(page.failure(), k -> new LongAdder()).increment();
            }
        }
        if (page.status() > 0) {
            statuses.computeIfAbsent(page.status(), s -> new LongAdder()).increment();
        }
        bytes.add(page.bytes());
        if (parent != null) {
            parent.stored(page);
        }
    }

    public long pages() { return pages.sum(); }
    public long failed() { return failed.sum(); }
    public long skipped() { return skipped.sum(); }
    long bytes() { return bytes.sum(); }
    long fetches() { return fetches.sum(); }
    long retries() { return retries.sum(); }

    /** Requests in flight right now. */
    public long fetching() {
        return fetching.sum();
    }

    Map<String, Long> statuses() {
        Map<String, Long> out = new TreeMap<>();
        statuses.forEach((code, n) -> out.put(String.valueOf(code), n.sum()));
        return out;
    }

    Map<String, Long> failures() {
        return sums(failures);
    }

    Map<String, Long> skips() {
        return sums(skips);
    }

    Latency latency() {
        return Latency.of(fetchMicros.copy());
    }

    private static Map<String, Long> sums(ConcurrentHashMap<String, LongAdder> counts) {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, n) -> out.put(k, n.sum()));
        return out;
    }
}
