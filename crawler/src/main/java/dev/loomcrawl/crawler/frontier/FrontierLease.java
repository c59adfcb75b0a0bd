package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.frontier.Node.State;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Permit;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The one implementation of a lease's life (see {@link Lease}): its outcome changes its host's queue under
 * the {@link Frontier}'s lock, then frees the host's permit in the {@link HostGates}, the fetch slot and the
 * backend's claim, in that order.
 */
final class FrontierLease implements Lease {
    private final Frontier frontier;
    private final ReentrantLock lock;
    private final HostGates gates;
    private final CrawlConfig config;
    private final Node node;
    private final HostQueue host;
    private final int attempt;
    private final int depthAtLease;
    private final @Nullable Visit visitAtLease;
    private final long leasedNanos = System.nanoTime();
    private final FrontierBackend.Claim claim;
    private final FetchLimit.Slot slot;
    private final @Nullable Permit permit; // null: a lease recorded without a request
    private @Nullable Skip skip;
    private @Nullable Change change; // set by complete, read by the same task after it
    private boolean robotsUnknown;
    /** The host's robots.txt as this lease knows it (null: not known, or not obeyed); its task's to read. */
    private Robots.@Nullable Rules rules;
    private boolean permitHeld;
    private boolean ended;

    FrontierLease(Frontier frontier, Node node, @Nullable Skip skip, boolean robots, FrontierBackend.Claim claim,
            FetchLimit.Slot slot, @Nullable Permit permit) {
        this.frontier = frontier;
        this.permit = permit;
        this.lock = frontier.lock;
        this.gates = frontier.gates;
        this.config = frontier.config;
        this.node = node;
        this.host = node.queue();
        this.attempt = node.attempts + 1;
        this.depthAtLease = node.depth;
        this.visitAtLease = node.visit;
        this.skip = skip;
        this.robotsUnknown = robots;
        this.rules = host.rules();
        this.permitHeld = skip == null;
        this.claim = claim;
        this.slot = slot;
    }

    @Override public CrawlUrl url() { return node.url; }
    @Override public int depth() { return depthAtLease; }
    @Override public int attempt() { return attempt; }

    @Override
    public int charged(RetryPolicy.HostSignal exchange) {
        if (exchange.trouble() == null) {
            return attempt; // nothing to retry (RetryPolicy retries only server trouble): no lock taken
        }
        lock.lock();
        try {
            return attempt - node.spared - (host.spares(leasedNanos) ? 1 : 0) - (exchange.restAsked() ? 0 : node.rested);
        } finally {
            lock.unlock();
        }
    }
    @Override public int redirects() { return node.redirects; }
    @Override public @Nullable String referrer() { return node.referrer; }
    @Override public long leasedNanos() { return leasedNanos; }
    @Override public @Nullable Visit visit() { return visitAtLease; }
    @Override public @Nullable Change change() { return change; }
    @Override public @Nullable Skip skip() { return skip; }
    @Override public boolean robotsUnknown() { return robotsUnknown; }
    @Override public void answering() {
        if (permit != null) {
            gates.answering(permit);
        }
    }

    @Override public boolean mayStart() { return (permit == null || !gates.resting(permit)) && claim.mayStart(); }

    @Override
    public void robots(Robots.Rules rules) {
        this.rules = rules;
        boolean allowed = rules.allows(node.url); // outside the lock, as every robots.txt question (see asked)
        lock.lock();
        try {
            host.robotsKnown(rules, System.nanoTime());
            frontier.troubles.robotsWaiting(host, false);
            robotsUnknown = false;
            if (!allowed) {
                skip = new Skip(FailureKind.ROBOTS, rules.reason());
            }
            frontier.queues.ready(host);
        } finally {
            lock.unlock();
        }
        frontier.backend.robotsFetched(host.hostKey, rules);
    }

    @Override
    public List<PageRecord> listed(List<Found> links, String sitemap) throws InterruptedException {
        lock.lock();
        try {
            if (ended || frontier.queues.cancelled()) {
                return List.of();
            }
        } finally {
            lock.unlock();
        }
        return frontier.backend.listed(node, asked(links), sitemap);
    }

    @Override
    public void robotsUnreachable(FetchResult.Failed failure) {
        lock.lock();
        try {
            if (ended) {
                return;
            }
            host.robotsUnreachable(failure, System.nanoTime(), config.politeness().robotsRetryFor());
            permitHeld = false;
            frontier.troubles.noteGivenUp(host);
            frontier.troubles.robotsWaiting(host, true);
            requeue(System.nanoTime());
        } finally {
            lock.unlock();
        }
        gates.giveBack(held()); // robots.txt unreachable: no answer to learn from
        release();
    }

    /** The exchange is over: the host learns how it went, and its permit and the fetch slot are freed. */
    private void exchangeOver(RetryPolicy.HostSignal signal) {
        long restUntil;
        lock.lock();
        try {
            if (!permitHeld) {
                return;
            }
            permitHeld = false;
            restUntil = host.exchangeOver(node, signal, gates, leasedNanos, System.nanoTime(),
                    config.politeness().hostFailureLimit());
            frontier.troubles.noteGivenUp(host);
            frontier.queues.ready(host);
        } finally {
            lock.unlock();
        }
        // After the host's own state changed: whoever the gate wakes sees the rest and the new count.
        gates.exit(held(), restUntil, signal.nanos(), signal.trouble() != null);
        slot.close();
    }

    @Override
    public List<PageRecord> complete(RetryPolicy.HostSignal exchange, PageRecord page, List<Found> links)
            throws InterruptedException {
        exchangeOver(exchange); // a no-op when no request was made under this lease
        boolean cancelled;
        lock.lock();
        try {
            if (ended) {
                return List.of();
            }
            cancelled = frontier.queues.cancelled();
            if (cancelled) {
                end(); // nothing more is stored for a cancelled job
            } else {
                node.state = State.COMPLETING;
            }
        } finally {
            lock.unlock();
        }
        if (cancelled) {
            release();
            return List.of();
        }
        Revisits.Visited visited = frontier.revisits.visited(visitAtLease, page);
        try {
            List<PageRecord> stored = frontier.backend.complete(node, page, asked(links), visited);
            change = visited.change();
            return stored;
        } finally {
            lock.lock();
            try {
                if (visited.next() instanceof Visit next && visited.due() && frontier.backend.keepsRevisits()
                        && !frontier.queues.cancelled()) {
                    revisitLater(next);
                } else {
                    node.state = State.DONE;
                    end();
                }
            } finally {
                lock.unlock();
            }
            release();
        }
    }

    @Override
    public void retry(RetryPolicy.HostSignal exchange, Duration delay) throws InterruptedException {
        exchangeOver(exchange);
        int attempts;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            attempts = node.attempts;
            node.notBefore = System.nanoTime() + delay.toNanos();
            requeue(System.nanoTime());
        } finally {
            lock.unlock();
        }
        release();
        frontier.backend.retried(node, attempts);
    }

    @Override
    public void close() {
        boolean freePermit;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            freePermit = permitHeld;
            permitHeld = false;
            host.abandoned(freePermit, robotsUnknown);
            node.notBefore = 0;
            requeue(System.nanoTime());
        } finally {
            lock.unlock();
        }
        if (freePermit) {
            gates.giveBack(held());
        }
        release();
    }

    /**
     * The links to this lease's host, each with what the host's robots.txt says of it, asked here, outside the
     * frontier's lock, which admits them: 500 KiB of rules its index cannot narrow (wildcard rules of characters
     * most paths have) take milliseconds a URL, and asked under the lock, a page of 20 new links would hold up every
     * other host of the job. Links to other hosts are asked under the lock, where their rules are read.
     */
    private List<Found> asked(List<Found> links) {
        Robots.Rules known = rules;
        return known == null ? links : Asked.each(links, known, host.hostKey);
    }

    /** The gate's permit: every lease that makes a request holds one (a lease recorded without one has none). */
    private Permit held() {
        return Objects.requireNonNull(permit, "a lease without a request has no permit to give back");
    }

    /** Stored, and due again at {@code next}'s time: back in its host's queue until then. Under the lock. */
    private void revisitLater(Visit next) {
        long now = System.nanoTime();
        node.visit = next;
        node.attempts = 0;
        node.notBefore = Revisits.dueNanos(next, Instant.now(), now);
        requeue(now);
    }

    /** Back in its host's queue (unless the job is cancelled). Under the lock. */
    private void requeue(long now) {
        ended = true;
        frontier.requeue(node, now);
    }

    /** Ended with its result stored (or not to be stored). Under the lock. */
    private void end() {
        ended = true;
        frontier.end(node);
    }

    /** The fetch slot, and the claim on the host; after the lease ended. */
    private void release() {
        slot.close();
        claim.release();
    }
}
