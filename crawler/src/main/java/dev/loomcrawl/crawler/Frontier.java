package dev.loomcrawl.crawler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The URLs a job has yet to fetch, queued per host, and the seen-set that makes each URL fetched once.
 *
 * <p>A URL waiting for its host is an entry in a queue, not a parked thread: {@link #next()} hands out a
 * URL only once its host's {@link HostLimiter} permit is taken. So a pool thread never sits on a busy
 * host's semaphore while other hosts' work waits behind it, and a million queued URLs cost a million small
 * objects, not a million threads. Hosts take turns (round robin), so one big host cannot starve the rest.
 *
 * <p>Depth is the shortest path from a seed, whatever order fetches finish in. Concurrent crawls reach
 * pages by long paths first all the time; a page first seen at depth 3 and later linked from depth 1 is
 * moved to depth 2, and if it was already fetched its links are offered again at the new depth. So the
 * pages a depth limit admits are the same in every mode and every run.
 *
 * <p>The job is over when nothing is queued and nothing is in flight; the last {@link #done} wakes
 * {@link #next()}, which then returns {@code null}. No polling.
 */
final class Frontier {

    /** What a lease asks of its task. */
    enum Kind {
        /** Fetch the page; the host permit is held until {@link #release}. */
        PAGE,
        /** Fetch the host's robots.txt first (holds a permit), then report with {@link #robotsFetched}. */
        ROBOTS,
        /** Not to be fetched (robots.txt, or its host was given up): record it with a reason, hold no permit. */
        SKIP
    }

    /**
     * A URL handed out to a task.
     *
     * @param failure for {@link Kind#SKIP}: the failure label to record
     * @param reason for {@link Kind#SKIP}: why, in words
     */
    record Lease(Node node, int depth, long dispatchedNanos, Kind kind, String failure, String reason) {
        CrawlUrl url() {
            return node.url;
        }

        int redirects() {
            return node.redirects;
        }
    }

    /** One URL of the job. Guarded by the frontier's lock. */
    static final class Node {
        final CrawlUrl url;
        final int redirects;
        int depth;
        /** Fetch attempts so far. */
        int attempts;
        /** Once fetched: the page's links in the crawl, kept so a shorter path can lower their depth. */
        Node[] links;
        /** Once fetched: links that were past the depth limit, offered again if this page gets closer. */
        CrawlUrl[] beyond;

        Node(CrawlUrl url, int depth, int redirects) {
            this.url = url;
            this.depth = depth;
            this.redirects = redirects;
        }
    }

    private static final class HostQueue {
        final String hostKey;
        final String host;
        final ArrayDeque<Node> urls = new ArrayDeque<>();
        boolean ready;
        /** robots.txt rules; null until fetched (or when not respected: {@link Robots#ALLOW_ALL}). */
        Robots.Rules rules;
        boolean robotsInFlight;
        int robotsAttempts;
        /** No request to this host before this instant ({@code System.nanoTime()}); 0 when not paused. */
        long pausedUntil;
        int consecutiveFailures;
        /** Set when the host is given up: its URLs are recorded with this failure, not fetched. */
        String givenUpFailure;
        String givenUpReason;

        HostQueue(CrawlUrl first, Robots.Rules rules) {
            this.hostKey = first.hostKey();
            this.host = first.host();
            this.rules = rules;
        }

        /** The URL with this host's one copy of its host strings: 130 bytes less per queued URL. */
        CrawlUrl shared(CrawlUrl url) {
            return url.host() == host ? url : new CrawlUrl(url.url(), host, hostKey);
        }
    }

    private static final Node[] NO_LINKS = {};
    private static final CrawlUrl[] NO_URLS = {};

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Node> seen = new HashMap<>();
    private final Map<String, HostQueue> hosts = new HashMap<>();
    /** Hosts that have queued URLs and may have a free permit. */
    private final ArrayDeque<HostQueue> ready = new ArrayDeque<>();
    /** Hosts with queued URLs that may not be asked before their pause ends, soonest first. */
    private final java.util.PriorityQueue<HostQueue> paused =
            new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(h -> h.pausedUntil));
    private final boolean respectRobots;
    private final long hostDelayNanos;
    private final int hostFailureLimit;
    private final HostLimiter limiter;
    private final int maxDepth;
    private final int maxPages;
    private final int maxInFlight;
    /** Nodes admitted by the current seed/expand/redirect call, for the caller to persist. */
    private List<Node> admittedNow = new ArrayList<>();
    private int admitted;
    private int queued;
    private int inFlight;
    private boolean closed;
    /** Suspending: hand out nothing more, but keep admitting what running tasks find, to persist it. */
    private boolean draining;

    Frontier(HostLimiter limiter, CrawlConfig config) {
        this(limiter, config.maxDepth(), config.maxPages(), config.maxInFlight(), config.respectRobots(),
                config.hostDelay().toNanos(), config.hostFailureLimit());
    }

    Frontier(HostLimiter limiter, int maxDepth, int maxPages, int maxInFlight, boolean respectRobots,
            long hostDelayNanos, int hostFailureLimit) {
        this.limiter = limiter;
        this.respectRobots = respectRobots;
        this.hostDelayNanos = hostDelayNanos;
        this.hostFailureLimit = hostFailureLimit;
        this.maxDepth = maxDepth;
        this.maxPages = maxPages;
        this.maxInFlight = maxInFlight;
    }

    /** Queues a seed (depth 0); returns what was admitted. */
    List<Node> seed(CrawlUrl url) {
        lock.lock();
        try {
            admittedNow = new ArrayList<>(1);
            offer(url, 0, 0);
            return admittedNow;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Rebuilds a job's frontier after a restart: URLs stored are seen and done; the rest are queued again
     * (those in flight when the process stopped among them: fetched once more).
     */
    void restore(PageStore.ResumeState state) {
        lock.lock();
        try {
            for (PageStore.Admitted a : state.admitted()) {
                CrawlUrl.parse(a.url()).ifPresent(url -> {
                    if (state.stored().contains(url.url())) {
                        Node done = new Node(url, a.depth(), a.redirects());
                        done.links = NO_LINKS; // its links are in the frontier table already
                        done.beyond = NO_URLS;
                        seen.put(url.url(), done);
                        admitted++;
                    } else {
                        offer(url, a.depth(), a.redirects());
                    }
                });
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records what a fetched page links to and queues the links within the depth limit. Links are taken
     * even at the limit: a shorter path found later may bring them within it.
     */
    List<Node> expand(Lease lease, List<CrawlUrl> links) {
        lock.lock();
        try {
            admittedNow = new ArrayList<>();
            Node page = lease.node();
            Node[] nodes = new Node[links.size()];
            List<CrawlUrl> beyond = null;
            int n = 0;
            for (CrawlUrl link : links) {
                Node node = offer(link, page.depth + 1, 0);
                if (node != null) {
                    nodes[n++] = node;
                } else if (page.depth + 1 > maxDepth) {
                    (beyond == null ? beyond = new ArrayList<>() : beyond).add(link);
                }
            }
            page.links = n == 0 ? NO_LINKS : Arrays.copyOf(nodes, n);
            page.beyond = beyond == null ? NO_URLS : beyond.toArray(NO_URLS);
            return admittedNow;
        } finally {
            lock.unlock();
        }
    }

    /** Queues the target of a redirect: same depth as the redirecting URL, one hop more. */
    List<Node> redirect(Lease lease, CrawlUrl target) {
        lock.lock();
        try {
            admittedNow = new ArrayList<>(1);
            offer(target, lease.node().depth, lease.redirects() + 1);
            return admittedNow;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Admits {@code url} at {@code depth}, or moves a known URL to a smaller depth. Returns its node, or
     * null if it is not (yet) part of the crawl.
     */
    private Node offer(CrawlUrl url, int depth, int redirects) {
        Node node = seen.get(url.url());
        if (node != null) {
            if (depth < node.depth) {
                relax(node, depth);
            }
            return node;
        }
        if (closed || depth > maxDepth || admitted >= maxPages) {
            return null;
        }
        HostQueue host = hosts.computeIfAbsent(url.hostKey(),
                key -> new HostQueue(url, respectRobots ? null : Robots.ALLOW_ALL));
        node = new Node(host.shared(url), depth, redirects);
        seen.put(url.url(), node);
        admittedNow.add(node);
        admitted++;
        queued++;
        host.urls.add(node);
        markReady(host);
        return node;
    }

    /**
     * A shorter path to {@code node}: lower its depth, then its fetched descendants' in turn, admitting
     * links that the old depth left beyond the limit. Recursion is bounded: each level lowers a depth.
     */
    private void relax(Node node, int depth) {
        node.depth = depth;
        if (node.links == null) {
            return; // queued or in flight: expand() will use the new depth
        }
        for (Node child : node.links) {
            if (depth + 1 < child.depth) {
                relax(child, depth + 1);
            }
        }
        if (node.beyond.length > 0 && depth + 1 <= maxDepth) {
            CrawlUrl[] waiting = node.beyond;
            List<Node> admittedNow = new ArrayList<>(List.of(node.links));
            List<CrawlUrl> stillBeyond = new ArrayList<>();
            for (CrawlUrl link : waiting) {
                Node child = offer(link, depth + 1, 0);
                if (child != null) {
                    admittedNow.add(child);
                } else {
                    stillBeyond.add(link); // the page limit is reached: keep it, as before
                }
            }
            node.links = admittedNow.toArray(NO_LINKS);
            node.beyond = stillBeyond.toArray(NO_URLS);
        }
    }

    /**
     * Waits until some host has a queued URL and a free permit, takes the permit and returns the URL;
     * returns {@code null} once the crawl is over or the frontier is closed.
     */
    Lease next() throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (closed || draining) {
                    return null;
                }
                long now = System.nanoTime();
                while (!paused.isEmpty() && paused.peek().pausedUntil <= now) {
                    HostQueue host = paused.poll();
                    host.pausedUntil = 0;
                    markReady(host);
                }
                if (inFlight < maxInFlight) {
                    Lease lease = leaseFromReadyHost(now);
                    if (lease != null) {
                        return lease;
                    }
                }
                if (queued == 0 && inFlight == 0) {
                    return null;
                }
                if (paused.isEmpty()) {
                    changed.await();
                } else {
                    changed.awaitNanos(paused.peek().pausedUntil - now); // wake when a pause ends
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private Lease leaseFromReadyHost(long now) {
        HostQueue host;
        while ((host = ready.poll()) != null) {
            host.ready = false;
            if (host.urls.isEmpty() || host.robotsInFlight) {
                continue; // robotsFetched() makes it ready again
            }
            if (host.pausedUntil > now) {
                paused.add(host);
                continue;
            }
            if (host.givenUpFailure != null) {
                Node next = host.urls.poll();
                    queued--;
                inFlight++;
                markReady(host);
                return new Lease(next, next.depth, now, Kind.SKIP, host.givenUpFailure, host.givenUpReason);
            }
            if (host.rules == null) {
                if (!limiter.tryAcquire(host.hostKey)) {
                    continue;
                }
                host.robotsInFlight = true;
                inFlight++;
                return new Lease(new Node(Robots.robotsUrl(host.urls.peek().url), 0, 0), 0, now, Kind.ROBOTS, null, null);
            }
            boolean allowed = host.rules.allows(host.urls.peek().url);
            if (allowed && !limiter.tryAcquire(host.hostKey)) {
                continue; // full hosts become ready again in release()
            }
            Node next = host.urls.poll();
            queued--;
            inFlight++;
            long spacing = Math.max(host.rules.crawlDelayNanos(), hostDelayNanos);
            if (allowed && spacing > 0) {
                host.pausedUntil = now + spacing;
            }
            markReady(host);
            return allowed ? new Lease(next, next.depth, now, Kind.PAGE, null, null)
                    : new Lease(next, next.depth, now, Kind.SKIP, FailureKind.ROBOTS.label(), host.rules.reason());
        }
        return null;
    }

    /**
     * The robots.txt fetch of a host is over: {@code rules} are its rules, or null if it must be tried
     * again after {@code retryAfterNanos}. Frees the permit the fetch held.
     */
    void robotsFetched(Lease lease, Robots.Rules rules, long retryAfterNanos) {
        lock.lock();
        try {
            HostQueue host = hosts.get(lease.url().hostKey());
            limiter.release(host.hostKey);
            host.robotsInFlight = false;
            host.robotsAttempts++;
            host.rules = rules;
            if (rules == null) {
                host.pausedUntil = System.nanoTime() + retryAfterNanos;
            }
            markReady(host);
        } finally {
            lock.unlock();
        }
    }

    /** The URL goes back to the head of its host's queue; call after {@link #release}, before {@link #done}. */
    void retry(Lease lease) {
        lock.lock();
        try {
            Node node = lease.node();
            HostQueue host = hosts.get(node.url.hostKey());
            host.urls.addFirst(node);
            queued++;
            markReady(host);
        } finally {
            lock.unlock();
        }
    }

    /** Server trouble so many times in a row gives the host up; anything else resets the count. */
    private void countOutcome(HostQueue host, Outcome outcome) {
        if (!outcome.serverTrouble()) {
            host.consecutiveFailures = 0;
        } else if (++host.consecutiveFailures >= hostFailureLimit && host.givenUpFailure == null) {
            host.givenUpFailure = outcome.failure();
            host.givenUpReason = "host given up after " + host.consecutiveFailures + " failed requests in a row";
            host.pausedUntil = 0; // record its URLs now; nothing more will be asked of it
        }
    }

    /** How many times this host's robots.txt has been fetched in this job. */
    int robotsAttempts(Lease lease) {
        lock.lock();
        try {
            return hosts.get(lease.url().hostKey()).robotsAttempts;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How a fetch went, for its host.
     *
     * @param retry the URL will be tried again ({@link #retry})
     * @param pauseNanos the host rests this long before its next request
     * @param serverTrouble connect error, reset, timeout, 5xx or 429: counts towards giving the host up
     * @param failure the failure label recorded for the host's URLs if it is given up
     */
    record Outcome(boolean retry, long pauseNanos, boolean serverTrouble, String failure) {
        static final Outcome OK = new Outcome(false, 0, false, null);
    }

    /**
     * Frees the lease's host permit as soon as the exchange is over, before parsing and storing. The
     * host's rest and failure count change in the same step, so no other fetch starts in between.
     *
     * @param outcome null when the fetch did not finish (cancelled): nothing was learned about the host
     */
    void release(Lease lease, Outcome outcome) {
        if (lease.kind() != Kind.PAGE) {
            return; // robots leases release in robotsFetched(); skipped ones hold no permit
        }
        lock.lock();
        try {
            HostQueue host = hosts.get(lease.url().hostKey());
            if (outcome != null) {
                if (outcome.pauseNanos() > 0) {
                    host.pausedUntil = Math.max(host.pausedUntil, System.nanoTime() + outcome.pauseNanos());
                }
                countOutcome(host, outcome);
            }
            limiter.release(host.hostKey);
            markReady(host);
        } finally {
            lock.unlock();
        }
    }

    /** The lease's task has finished, its new links offered. */
    void done(Lease lease) {
        lock.lock();
        try {
            inFlight--;
            if (lease.kind() == Kind.ROBOTS) {
                changed.signalAll();
                return;
            }
            if (lease.node().links == null) {
                lease.node().links = NO_LINKS; // failed or cancelled: nothing to re-offer
                lease.node().beyond = NO_URLS;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops handing out URLs but goes on admitting links, so that a suspended job loses none. */
    void drain() {
        lock.lock();
        try {
            draining = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops handing out URLs and drops the queue; {@link #next()} returns {@code null} from now on. */
    void close() {
        lock.lock();
        try {
            closed = true;
            queued = 0;
            hosts.values().forEach(host -> host.urls.clear());
            ready.clear();
            paused.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    int queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    private void markReady(HostQueue host) {
        if (!host.ready && !host.urls.isEmpty()) {
            host.ready = true;
            ready.add(host);
            changed.signalAll();
        }
    }
}
