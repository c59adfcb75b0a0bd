package dev.loomcrawl.mocksites;

import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the farm saw, counted at the server: the truth a crawler's own figures are checked against.
 *
 * <p>A request is in flight from the moment it is routed until its response is due (its delay plus any
 * dribble). WireMock sends a delayed response from a scheduler, after its listeners have run, so the
 * due time is the one moment the farm knows for sure; a client cannot have the response, and so cannot
 * reuse the host permit, any earlier. A client that exceeds its limit therefore shows here.
 */
public final class FarmCounters {

    /**
     * A consistent-enough copy of the counters, for JSON and for assertions.
     *
     * @param retryAfterViolations requests to a host inside the rest a 429 from it asked for, counted from the
     *     moment the farm sent the 429: a request a client sent before it had read that answer counts too, so a
     *     client with several requests in flight to the host shows some however it obeys
     * @param earlyRetries requests for the very URL a 429 answered, inside that 429's {@code Retry-After}: asking
     *     again too soon, which no number of requests in flight excuses
     */
    public record Snapshot(
            long requests,
            int maxInFlight,
            int maxInFlightPerHost,
            String busiestHost,
            long duplicateFetches,
            int maxFetchesOfOneUrl,
            long refetches,
            long robotsViolations,
            long retryAfterViolations,
            long earlyRetries,
            int hostsVisited,
            Map<String, Long> byKind,
            long pagesServed) {}

    private final int hosts;
    private final LongAdder requests = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> byKind = new ConcurrentHashMap<>();
    private final Set<String> servedOk = ConcurrentHashMap.newKeySet();
    /** The site graph's pages served with their content at least once: what a crawler outside the JVM fetched. */
    private final LongAdder pagesServed = new LongAdder();
    private final ConcurrentHashMap<String, Integer> fetchesByUrl = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger maxFetchesOfOneUrl = new java.util.concurrent.atomic.AtomicInteger();
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder refetches = new LongAdder();
    private final LongAdder robotsViolations = new LongAdder();
    private final LongAdder retryAfterViolations = new LongAdder();
    private final LongAdder earlyRetries = new LongAdder();
    private final InFlight overall = new InFlight();
    private final ConcurrentHashMap<Integer, InFlight> perHost = new ConcurrentHashMap<>();
    private final AtomicLong maxPerHost = new AtomicLong(); // (max << 32) | host
    /** Requests by how many of their host's requests were in flight when they came (the last counts 64 and more). */
    private final LongAdder[] arrivalsFinding = newAdders(65);
    /** Per host: [from, until) in nanos during which a request breaks a Retry-After the farm sent. */
    private final ConcurrentHashMap<Integer, long[]> retryWindows = new ConcurrentHashMap<>();
    /** Per URL (host index and path) that got a 429: the same window, for the URL itself. */
    private final ConcurrentHashMap<String, long[]> urlRetryWindows = new ConcurrentHashMap<>();
    /** Pages (host index and page, {@code host << 32 | page}) answered with a server error since the last reset. */
    private final Set<Long> serverErred = ConcurrentHashMap.newKeySet();

    FarmCounters(int hosts) {
        this.hosts = hosts;
    }

    /**
     * @param graphPage the request was for one of the site graph's pages (which a crawl is out to fetch), not for
     *     robots.txt, a sitemap, a redirect or a link outside the graph
     */
    void record(int host, String path, long busyMillis, String kind, boolean success, boolean disallowed,
            boolean graphPage) {
        long now = System.nanoTime();
        long due = now + TimeUnit.MILLISECONDS.toNanos(busyMillis);
        requests.increment();
        byKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
        overall.add(now, due);
        if (host < 0) {
            return;
        }
        int inFlight = perHost.computeIfAbsent(host, h -> new InFlight()).add(now, due);
        maxPerHost.accumulateAndGet(((long) inFlight << 32) | host, Math::max);
        arrivalsFinding[Math.min(inFlight - 1, arrivalsFinding.length - 1)].increment();
        String key = host + path;
        int fetches = fetchesByUrl.merge(key, 1, Integer::sum);
        if (fetches > 1) {
            refetches.increment();
        }
        maxFetchesOfOneUrl.accumulateAndGet(fetches, Math::max);
        if (success) {
            if (!servedOk.add(key)) {
                duplicates.increment();
            } else if (graphPage) {
                pagesServed.increment();
            }
        }
        if (disallowed) {
            robotsViolations.increment();
        }
        if (inside(retryWindows.get(host), now)) {
            retryAfterViolations.increment();
        }
        if (inside(urlRetryWindows.get(key), now)) {
            earlyRetries.increment();
        }
    }

    private static boolean inside(long[] window, long now) {
        return window != null && now >= window[0] && now < window[1];
    }

    /**
     * The farm answered a request for {@code path} with 429 and Retry-After: neither the host nor the URL may be
     * asked again until it has passed.
     */
    void retryAfter(int host, String path, long delayMillis, int seconds) {
        long from = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        long[] window = {from, from + TimeUnit.SECONDS.toNanos(seconds)};
        retryWindows.put(host, window);
        urlRetryWindows.put(host + path, window);
    }

    public Snapshot snapshot() {
        Map<String, Long> kinds = new TreeMap<>();
        byKind.forEach((k, v) -> kinds.put(k, v.sum()));
        long packed = maxPerHost.get();
        int max = (int) (packed >>> 32);
        return new Snapshot(requests.sum(), overall.max(), max,
                max == 0 ? null : SiteGraph.hostName((int) packed), duplicates.sum(), maxFetchesOfOneUrl.get(),
                refetches.sum(), robotsViolations.sum(), retryAfterViolations.sum(), earlyRetries.sum(),
                Math.min(perHost.size(), hosts), kinds, pagesServed.sum());
    }

    /**
     * Requests that came while at least {@code inFlight} others of their host were in flight: with a client's
     * per-host limit as the argument, each request it sent beyond that limit.
     */
    public long arrivalsFinding(int inFlight) {
        long sum = 0;
        for (int i = Math.min(inFlight, arrivalsFinding.length - 1); i < arrivalsFinding.length; i++) {
            sum += arrivalsFinding[i].sum();
        }
        return sum;
    }

    /**
     * Whether this is the first server error drawn for page {@code page} of host {@code host} since the last reset,
     * recording it: a farm whose pages fail at most once ({@link Faults#serverErrorOnce}) serves the page instead.
     */
    boolean firstServerError(int host, int page) {
        return serverErred.add((long) host << 32 | page);
    }

    private static LongAdder[] newAdders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    public void reset() {
        for (LongAdder a : arrivalsFinding) {
            a.reset();
        }
        requests.reset();
        byKind.clear();
        servedOk.clear();
        pagesServed.reset();
        fetchesByUrl.clear();
        maxFetchesOfOneUrl.set(0);
        duplicates.reset();
        refetches.reset();
        robotsViolations.reset();
        retryAfterViolations.reset();
        earlyRetries.reset();
        overall.clear();
        perHost.clear();
        maxPerHost.set(0);
        retryWindows.clear();
        urlRetryWindows.clear();
        serverErred.clear();
    }

    /** Requests in flight, as the due times of their responses; keeps its maximum. */
    private static final class InFlight {
        private final PriorityQueue<Long> due = new PriorityQueue<>();
        private int max;

        synchronized int add(long now, long until) { // a few operations on a heap; no I/O under this monitor
            while (!due.isEmpty() && due.peek() <= now) {
                due.poll();
            }
            due.add(until);
            max = Math.max(max, due.size());
            return due.size();
        }

        synchronized int max() {
            return max;
        }

        synchronized void clear() {
            due.clear();
            max = 0;
        }
    }
}
