package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Permit;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The URLs of one job yet to be crawled, and the rules by which they are handed out: each URL once, at its
 * shortest depth, no host asked more often than it allows. One implementation for one process and a cluster
 * node; where the URLs are kept and results stored is its {@link FrontierBackend}'s.
 *
 * <p>A URL waiting for its host is an entry in a {@link HostQueue}, not a parked thread: {@link #next}
 * hands out a URL only once its host has a permit free ({@link HostGates}), so a pool thread never sits on
 * a busy host while other hosts' work waits. Hosts take turns, round robin ({@link HostTurns}). A host that
 * is full, resting or spaced out by its Crawl-delay is not polled: the gates say when a permit frees, and
 * timed waits end exactly when a rest or backoff does.
 *
 * <p>A task gets its URL as a {@link Lease} from {@link #next} and ends it with one outcome.
 */
public final class Frontier implements HostGates.Listener {
    /** How soon a host whose backend refused a claim is tried again, and the longest wait of a frontier that is not {@link FrontierBackend#allHere}. */
    private static final long LOOK_AGAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    final CrawlConfig config;
    final HostGates gates;
    final HostQueues queues;
    final FrontierBackend backend;
    final Revisits revisits;
    final ReentrantLock lock;
    private final HostTurns turns;
    final HostTroubles troubles;
    private int inFlight;
    private boolean draining;
    private boolean over;

    public Frontier(CrawlConfig config, HostGates gates, HostQueues queues, FrontierBackend backend, Revisits revisits) {
        this.config = config;
        this.revisits = revisits;
        this.gates = gates;
        this.queues = queues;
        this.backend = backend;
        this.lock = queues.lock();
        this.turns = queues.turns();
        this.troubles = new HostTroubles(lock);
        gates.inForce(config.politeness().politenessKey()); // before anything is handed out
        gates.watch(this);
    }

    /** Starts the job: admits the seeds (a resumed job's admit nothing new), or loads this node's share. */
    public void seed(List<CrawlUrl> seeds) throws InterruptedException {
        backend.start(seeds);
    }

    /** Whether {@code url}, exactly as written, is a URL this job already has: no need to normalise it. */
    public boolean knows(String url) {
        return backend.knows(url);
    }

    /**
     * Whether the job admits no new URL now, its page limit reached: a page's new links need not be checked and
     * offered (a page of 95,000 links spent a third of its time on them). Without the lock: a stale answer lets
     * links through to be refused under it.
     */
    public boolean full() {
        return backend.full();
    }

    // ---- handing out

    /**
     * Waits until some host may be asked for a URL and hands it out with {@code slot}, which the lease now
     * owns; returns null once the crawl is over, suspended or cancelled (the slot is then the caller's).
     */
    public @Nullable Lease next(FetchLimit.Slot slot) throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (queues.cancelled() || draining || over) {
                    return null;
                }
                long now = System.nanoTime();
                if (inFlight < config.execution().maxInFlight()) {
                    Lease lease = leaseFromReadyHost(now, slot);
                    if (lease != null) {
                        return lease;
                    }
                }
                if (backend.allHere() && queues.queued() == 0 && inFlight == 0) {
                    return null;
                }
                turns.await(now, backend.allHere() ? 0 : LOOK_AGAIN_NANOS); // a host ready, a rest or backoff over
            }
        } finally {
            lock.unlock();
        }
    }

    private @Nullable Lease leaseFromReadyHost(long now, FetchLimit.Slot slot) {
        HostQueue host;
        while ((host = turns.next(now)) != null) {
            if (!queues.current(host) || !backend.serves(host, now)) {
                continue;
            }
            Node node = host.due(now);
            if (node == null) {
                turns.wakeAt(host, host.wakeTime(now));
                continue;
            }
            Lease.Skip skip = host.skipFor(node);
            if (skip == null && host.busy()) {
                continue; // a lease coming back makes it ready again
            }
            if (skip == null && host.spacedUntil(now)) {
                turns.wakeAt(host, host.nextStart());
                continue;
            }
            FrontierBackend.Claim claim = backend.claim(host, now, skip == null);
            if (claim == null) {
                turns.wakeAt(host, now + LOOK_AGAIN_NANOS);
                continue;
            }
            if (skip != null) {
                host.leaseSkip(node);
                return handOut(host, node, skip, false, claim, slot, null);
            }
            CrawlConfig.Politeness politeness = config.politeness();
            HostGates.Entry entry = gates.tryEnter(host.target, politeness.politenessKey(),
                    politeness.perHostConcurrency(), now, this);
            if (!entry.entered()) {
                claim.release();
                if (entry.resting()) {
                    turns.wakeAt(host, entry.restUntilNanos());
                } else {
                    host.waitingForGate = true; // opened() makes it ready again
                }
                continue;
            }
            boolean robots = !host.robotsKnown();
            host.lease(node, now, politeness.hostDelay().toNanos());
            return handOut(host, node, null, robots, claim, slot, entry.permit());
        }
        return null;
    }

    private Lease handOut(HostQueue host, Node node, Lease.@Nullable Skip skip, boolean robots, FrontierBackend.Claim claim,
            FetchLimit.Slot slot, @Nullable Permit permit) {
        queues.handedOut();
        inFlight++;
        turns.ready(host);
        backend.handedOut(host);
        return new FrontierLease(this, node, skip, robots, claim, slot, permit);
    }

    /** A permit of a host this frontier found full came free: try it again. */
    @Override
    public void opened(String hostKey) {
        lock.lock();
        try {
            HostQueue host = queues.get(hostKey);
            if (host != null && host.waitingForGate) {
                host.waitingForGate = false;
                turns.ready(host);
            }
        } finally {
            lock.unlock();
        }
    }

    /** An operator changed a key's setting: every host takes its turn again and finds out what binds it now. */
    @Override
    public void reconsider() {
        lock.lock();
        try {
            for (HostQueue host : queues.all()) {
                host.waitingForGate = false;
                turns.ready(host);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- figures and control

    /** URLs waiting here. */
    public int queued() {
        lock.lock();
        try {
            return queues.queued();
        } finally {
            lock.unlock();
        }
    }

    /**
     * URLs waiting here whose time has come; the rest wait for a retry's backoff or, on a continuous job, for
     * their next visit. Counted through every host: for progress, a few times a second at most.
     */
    public int due() {
        long now = System.nanoTime();
        lock.lock();
        try {
            int due = 0;
            for (HostQueue host : queues.all()) {
                due += host.dueCount(now);
            }
            return due;
        } finally {
            lock.unlock();
        }
    }

    /** URLs waiting here, by what limits their host's requests. */
    public Map<Target, Integer> queuedByHost() {
        Map<Target, Integer> queued = new HashMap<>();
        lock.lock();
        try {
            for (HostQueue host : queues.all()) {
                if (host.size() > 0) {
                    queued.merge(host.target, host.size(), Integer::sum);
                }
            }
        } finally {
            lock.unlock();
        }
        return queued;
    }

    /** Leases handed out and not yet ended. */
    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /** Hosts given up so far, with why. */
    public Map<String, String> givenUpHosts() {
        return troubles.givenUp();
    }

    /** Hosts whose robots.txt fails and is tried again, with why; three at most. */
    public Map<String, String> robotsRetrying() {
        return troubles.robotsRetrying();
    }

    /** Hands out nothing more; leases out end as usual and store their results (a graceful stop). */
    public void drain() {
        stop(() -> draining = true);
        backend.stop(false);
    }

    /** Hands out nothing more and stores nothing more; what is stored stays. */
    public void cancel() {
        stop(queues::cancel);
        backend.stop(true);
    }

    /** The job is over everywhere (a cluster found nothing left to fetch): hand out nothing more. */
    public void finish() {
        stop(() -> over = true);
        backend.stop(false);
    }

    private void stop(Runnable how) {
        lock.lock();
        try {
            how.run();
            queues.changed().signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- for leases, under the lock

    /** A lease ended: back in its host's queue, unless the job was cancelled or the host is no longer here. */
    void requeue(Node node, long now) {
        inFlight--;
        if (!queues.cancelled() && queues.current(node.queue())) {
            queues.requeue(node, now);
        } else {
            backend.forget(node);
        }
        queues.changed().signalAll();
    }

    /** A lease ended with its result stored (or not to be stored). */
    void end(Node node) {
        inFlight--;
        backend.forget(node);
        turns.ready(node.queue()); // the claim's end may let the host hand out again
        queues.changed().signalAll();
    }
}
