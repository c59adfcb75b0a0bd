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
        /** robots.txt disallows it: record it, fetch nothing, hold no permit. */
        DISALLOWED
    }

    /** A URL handed out to a task. */
    record Lease(Node node, int depth, long dispatchedNanos, Kind kind, String reason) {
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
        boolean leased;
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
        final ArrayDeque<Node> urls = new ArrayDeque<>();
        boolean ready;
        /** robots.txt rules; null until fetched (or when not respected: {@link Robots#ALLOW_ALL}). */
        Robots.Rules rules;
        boolean robotsInFlight;
        int robotsAttempts;
        /** No request to this host before this instant ({@code System.nanoTime()}); 0 when not paused. */
        long pausedUntil;

        HostQueue(String hostKey, Robots.Rules rules) {
            this.hostKey = hostKey;
            this.rules = rules;
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
    private final HostLimiter limiter;
    private final int maxDepth;
    private final int maxPages;
    private final int maxInFlight;
    private int admitted;
    private int queued;
    private int inFlight;
    private boolean closed;

    Frontier(HostLimiter limiter, int maxDepth, int maxPages, int maxInFlight, boolean respectRobots) {
        this.limiter = limiter;
        this.respectRobots = respectRobots;
        this.maxDepth = maxDepth;
        this.maxPages = maxPages;
        this.maxInFlight = maxInFlight;
    }

    /** Queues a seed (depth 0). */
    void seed(CrawlUrl url) {
        lock.lock();
        try {
            offer(url, 0, 0);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records what a fetched page links to and queues the links within the depth limit. Links are taken
     * even at the limit: a shorter path found later may bring them within it.
     */
    void expand(Lease lease, List<CrawlUrl> links) {
        lock.lock();
        try {
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
        } finally {
            lock.unlock();
        }
    }

    /** Queues the target of a redirect: same depth as the redirecting URL, one hop more. */
    void redirect(Lease lease, CrawlUrl target) {
        lock.lock();
        try {
            offer(target, lease.node().depth, lease.redirects() + 1);
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
        node = new Node(url, depth, redirects);
        seen.put(url.url(), node);
        admitted++;
        queued++;
        HostQueue host = hosts.computeIfAbsent(url.hostKey(),
                key -> new HostQueue(key, respectRobots ? null : Robots.ALLOW_ALL));
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
                if (closed) {
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
            if (host.rules == null) {
                if (!limiter.tryAcquire(host.hostKey)) {
                    continue;
                }
                host.robotsInFlight = true;
                inFlight++;
                return new Lease(new Node(Robots.robotsUrl(host.urls.peek().url), 0, 0), 0, now, Kind.ROBOTS, null);
            }
            boolean allowed = host.rules.allows(host.urls.peek().url);
            if (allowed && !limiter.tryAcquire(host.hostKey)) {
                continue; // full hosts become ready again in release()
            }
            Node next = host.urls.poll();
            next.leased = true;
            queued--;
            inFlight++;
            if (allowed && host.rules.crawlDelayNanos() > 0) {
                host.pausedUntil = now + host.rules.crawlDelayNanos();
            }
            markReady(host);
            return allowed ? new Lease(next, next.depth, now, Kind.PAGE, null)
                    : new Lease(next, next.depth, now, Kind.DISALLOWED, host.rules.reason());
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

    /** How many times this host's robots.txt has been fetched in this job. */
    int robotsAttempts(Lease lease) {
        lock.lock();
        try {
            return hosts.get(lease.url().hostKey()).robotsAttempts;
        } finally {
            lock.unlock();
        }
    }

    /** Frees the lease's host permit: called as soon as the fetch is over, before parsing and storing. */
    void release(Lease lease) {
        if (lease.kind() != Kind.PAGE) {
            return; // robots leases release in robotsFetched(); disallowed ones hold no permit
        }
        lock.lock();
        try {
            limiter.release(lease.url().hostKey());
            HostQueue host = hosts.get(lease.url().hostKey());
            if (host != null) {
                markReady(host);
            }
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
