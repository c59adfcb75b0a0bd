package dev.loomcrawl.crawler;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
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
 * <p>The job is over when nothing is queued and nothing is in flight; the last {@link #done} wakes
 * {@link #next()}, which then returns {@code null}. No polling.
 */
final class Frontier {

    /** A URL handed out for fetching; its host permit is held until {@link #release}. */
    record Lease(CrawlUrl url, int depth, int redirects, long dispatchedNanos) {}

    private record Candidate(CrawlUrl url, int depth, int redirects) {}

    private static final class HostQueue {
        final String hostKey;
        final ArrayDeque<Candidate> urls = new ArrayDeque<>();
        boolean ready;

        HostQueue(String hostKey) {
            this.hostKey = hostKey;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Set<String> seen = new HashSet<>();
    private final Map<String, HostQueue> hosts = new HashMap<>();
    /** Hosts that have queued URLs and may have a free permit. */
    private final ArrayDeque<HostQueue> ready = new ArrayDeque<>();
    private final HostLimiter limiter;
    private final int maxPages;
    private final int maxInFlight;
    private int admitted;
    private int queued;
    private int inFlight;
    private boolean closed;

    Frontier(HostLimiter limiter, int maxPages, int maxInFlight) {
        this.limiter = limiter;
        this.maxPages = maxPages;
        this.maxInFlight = maxInFlight;
    }

    /**
     * Queues {@code url} unless it was seen before, the page limit is reached, or the frontier is closed.
     *
     * @return true if queued
     */
    boolean offer(CrawlUrl url, int depth, int redirects) {
        lock.lock();
        try {
            if (closed || admitted >= maxPages || !seen.add(url.url())) {
                return false;
            }
            admitted++;
            queued++;
            HostQueue host = hosts.computeIfAbsent(url.hostKey(), HostQueue::new);
            host.urls.add(new Candidate(url, depth, redirects));
            markReady(host);
            return true;
        } finally {
            lock.unlock();
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
                if (inFlight < maxInFlight) {
                    Lease lease = leaseFromReadyHost();
                    if (lease != null) {
                        return lease;
                    }
                }
                if (queued == 0 && inFlight == 0) {
                    return null;
                }
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    private Lease leaseFromReadyHost() {
        HostQueue host;
        while ((host = ready.poll()) != null) {
            host.ready = false;
            if (host.urls.isEmpty() || !limiter.tryAcquire(host.hostKey)) {
                continue; // full hosts become ready again in release()
            }
            Candidate next = host.urls.poll();
            queued--;
            inFlight++;
            markReady(host);
            return new Lease(next.url(), next.depth(), next.redirects(), System.nanoTime());
        }
        return null;
    }

    /** Frees the lease's host permit: called as soon as the fetch is over, before parsing and storing. */
    void release(Lease lease) {
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
