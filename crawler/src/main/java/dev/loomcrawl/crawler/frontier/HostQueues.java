package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The URLs of one job that this process holds, by host, under one lock: what the {@link Frontier} hands out
 * from and its backend ({@link FrontierBackend}) fills. Every method but {@link #lock()} runs under the lock.
 */
public final class HostQueues {
    private final CrawlConfig config;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final HostTurns turns = new HostTurns(changed);
    private final HashMap<String, HostQueue> hosts = new HashMap<>();
    private int queued;
    private boolean cancelled;

    public HostQueues(CrawlConfig config) {
        this.config = config;
    }

    public ReentrantLock lock() {
        return lock;
    }

    Condition changed() {
        return changed;
    }

    HostTurns turns() {
        return turns;
    }

    /** The queue of {@code url}'s host, made on first use. */
    HostQueue of(CrawlUrl url) {
        HostQueue host = hosts.get(url.hostKey());
        return host != null ? host : fresh(url);
    }

    /** The queue of {@code hostKey}, or null if there is none. */
    @Nullable HostQueue get(String hostKey) {
        return hosts.get(hostKey);
    }

    /** A new, empty queue for {@code url}'s host, in place of one it had (whose URLs are dropped first). */
    public HostQueue fresh(CrawlUrl url) {
        HostQueue old = hosts.get(url.hostKey());
        if (old != null) {
            drop(old);
        }
        CrawlConfig.Politeness politeness = config.politeness();
        HostQueue host = new HostQueue(url, politeness.perHostConcurrency(),
                politeness.respectRobots() ? null : Robots.ALLOW_ALL);
        hosts.put(url.hostKey(), host);
        return host;
    }

    /** Whether {@code host} is still the queue of its host (not dropped nor replaced). */
    boolean current(HostQueue host) {
        return hosts.get(host.hostKey) == host;
    }

    /** Forgets a host's queue and the URLs waiting in it (a cluster node lost the host: they wait in the database). */
    public void drop(HostQueue host) {
        queued -= host.size();
        host.clear();
        hosts.remove(host.hostKey, host);
    }

    /** {@code host} has URLs waiting: it takes its turn. */
    public void ready(HostQueue host) {
        turns.ready(host);
    }

    /** {@code node} waits in its host's queue and takes its turn. */
    public void enqueue(Node node) {
        node.queue().add(node);
        queued++;
        turns.ready(node.queue());
    }

    /** A stored URL waits in its host's queue until {@code visit} says it is due, and is visited again then. */
    public void enqueueDue(Node node, Visit visit) {
        long now = System.nanoTime();
        node.visit = visit;
        node.notBefore = Revisits.dueNanos(visit, Instant.now(), now);
        requeue(node, now);
    }

    /** A URL back from a lease waits in its host's queue again. */
    void requeue(Node node, long now) {
        turns.requeue(node.queue(), node, now);
        queued++;
    }

    /** One URL of the queues is handed out. */
    void handedOut() {
        queued--;
    }

    int queued() {
        return queued;
    }

    Collection<HostQueue> all() {
        return hosts.values();
    }

    /** No URL is queued any more, nor ever again (the job was cancelled). */
    void cancel() {
        cancelled = true;
        hosts.values().forEach(HostQueue::clear);
        turns.clear();
        queued = 0;
        changed.signalAll();
    }

    public boolean cancelled() {
        return cancelled;
    }
}
