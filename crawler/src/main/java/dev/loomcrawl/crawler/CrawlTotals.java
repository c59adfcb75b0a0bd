package dev.loomcrawl.crawler;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/** Figures across every job (and {@code /fetch}) of one {@link Crawler}, since it was created. */
public final class CrawlTotals {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final LongAdder pages = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder fetches = new LongAdder();
    private final LongAdder fetching = new LongAdder();
    private final ConcurrentHashMap<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final ConcurrentHistogram fetchMicros = new ConcurrentHistogram(MAX_MICROS, 2);

    void fetchStarted() {
        fetching.increment();
    }

    void fetchEnded() {
        fetching.decrement();
    }

    void record(int status, boolean isFailed, long fetchNanos) {
        (isFailed ? failed : pages).increment();
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
        if (fetchNanos >= 0) {
            fetches.increment();
            fetchMicros.recordValue(Math.min(MAX_MICROS, Math.max(0, fetchNanos / 1_000)));
        }
    }

    /** URLs stored without a failure. */
    public long pages() {
        return pages.sum();
    }

    public long failed() {
        return failed.sum();
    }

    /** HTTP exchanges made. */
    public long fetches() {
        return fetches.sum();
    }

    /** Fetches holding a host permit right now. */
    public long fetching() {
        return fetching.sum();
    }

    public Map<String, Long> statuses() {
        Map<String, Long> out = new TreeMap<>();
        statuses.forEach((code, n) -> out.put(String.valueOf(code), n.sum()));
        return out;
    }

    public Latency latency() {
        return Latency.of(fetchMicros.copy());
    }
}
