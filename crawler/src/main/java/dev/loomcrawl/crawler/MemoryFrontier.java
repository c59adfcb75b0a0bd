package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.HostQueue.Node;
import dev.loomcrawl.crawler.HostQueue.State;
import dev.loomcrawl.crawler.store.Admitted;
import dev.loomcrawl.crawler.store.PageRecord;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.ResumeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A job's frontier in this process's memory, every admitted URL written to the store before the page that
 * found it, so a restarted process can rebuild it ({@link #restore}).
 *
 * <p>A URL waiting for its host is an entry in a {@link HostQueue}, not a parked thread: {@link #next}
 * hands out a URL only once its host has a permit free ({@link HostGates}), so a pool thread never sits on
 * a busy host while other hosts' work waits, and a million queued URLs cost a million small objects, not a
 * million threads. Hosts take turns, round robin. A host that is full, resting or spaced out by its
 * Crawl-delay is not polled: the gates tell the frontier when a permit frees, and timed waits end exactly
 * when a rest or backoff does.
 *
 * <p>Depth is the shortest path from a seed, whatever order fetches finish in. Concurrent crawls reach
 * pages by long paths first all the time; a page first seen at depth 3 and later linked from depth 1 moves
 * to depth 2, its links are offered again at the new depth, and a depth already stored is lowered in the
 * store after the row that holds it. So a depth limit admits the same pages in every mode and every run.
 */
final class MemoryFrontier implements Frontier, HostGates.Listener {
    private static final Node[] NO_LINKS = {};
    private static final CrawlUrl[] NO_URLS = {};

    private final long jobId;
    private final CrawlConfig config;
    private final HostGates gates;
    private final PageStore store;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Read without the lock ({@link #knows}); written under it. */
    private final ConcurrentHashMap<String, Node> seen = new ConcurrentHashMap<>();
    private final HashMap<String, HostQueue> hosts = new HashMap<>();
    /** Hosts whose robots.txt failed and is tried again: said on the progress line. Guarded by lock. */
    private final java.util.Set<HostQueue> robotsWaiting = new java.util.LinkedHashSet<>();
    private final HostTurns turns = new HostTurns(changed);
    private final Map<String, String> givenUp = new LinkedHashMap<>();
    private int admitted;
    private int queued;
    private int inFlight;
    private boolean draining;
    private boolean cancelled;

    MemoryFrontier(long jobId, CrawlConfig config, HostGates gates, PageStore store) {
        this.jobId = jobId;
        this.config = config;
        this.gates = gates;
        this.store = store;
    }

    // ---- admission

    @Override
    public void seed(List<CrawlUrl> seeds) throws InterruptedException {
        List<Admitted> rows = new ArrayList<>();
        lock.lock();
        try {
            for (CrawlUrl seed : seeds) {
                if (!seen.containsKey(seed.url())) {
                    Node node = admit(seed, 0, 0, null);
                    if (node != null) {
                        rows.add(row(node));
                    }
                }
            }
        } finally {
            lock.unlock();
        }
        if (!rows.isEmpty()) {
            store.saveAdmitted(rows, List.of());
        }
    }

    /**
     * Rebuilds a job's frontier after a restart: URLs stored are seen and done; the rest are queued again
     * (those in flight when the process stopped among them: fetched once more).
     */
    void restore(ResumeState state) {
        lock.lock();
        try {
            for (Admitted a : state.admitted()) {
                CrawlUrl.parse(a.url()).ifPresent(url -> {
                    if (state.stored().contains(url.url())) {
                        Node done = new Node(url, null, a.depth(), a.redirects(), a.referrer());
                        done.state = State.DONE;
                        done.links = NO_LINKS; // its links are in the store already
                        done.beyond = NO_URLS;
                        seen.put(url.url(), done);
                        admitted++;
                    } else if (!seen.containsKey(url.url())) {
                        admit(url, a.depth(), a.redirects(), a.referrer());
                    }
                });
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean knows(String url) {
        return seen.containsKey(url);
    }

    /** Admits a new URL to its host's queue; null past the page limit or after a cancel. */
    private Node admit(CrawlUrl url, int depth, int redirects, String referrer) {
        if (cancelled || admitted >= config.maxPages()) {
            return null;
        }
        HostQueue host = hosts.computeIfAbsent(url.hostKey(),
                key -> new HostQueue(url, config.perHostConcurrency(), config.respectRobots() ? null : Robots.ALLOW_ALL));
        Node node = new Node(host.shared(url), host, depth, redirects, referrer);
        seen.put(url.url(), node);
        admitted++;
        queued++;
        host.add(node);
        turns.ready(host);
        return node;
    }

    /** What one page's completion admits, records on sight, and whose stored depth it lowers. */
    private final class Expansion {
        final List<Admitted> admittedRows = new ArrayList<>();
        final List<PageRecord> recorded = new ArrayList<>();
        final List<Node> lowered = new ArrayList<>();

        void admitted(Node node) {
            admittedRows.add(row(node));
        }
    }

    /** Takes a page's links: known ones may get a shorter depth, new ones are admitted or recorded on sight. */
    private void expand(Node page, List<Lease.Found> found, Expansion out) {
        Node[] links = new Node[found.size()];
        List<CrawlUrl> beyond = null;
        int n = 0;
        for (Lease.Found f : found) {
            switch (f) {
                case Lease.Found.Invalid invalid -> {
                    if (seen.containsKey(invalid.url())) {
                        continue;
                    }
                    Node node = recordedOnSight(new CrawlUrl(invalid.url(), "", ""), page.depth + 1, page); // no host
                    out.recorded.add(skipped(node, FailureKind.INVALID_URL, invalid.reason()));
                }
                case Lease.Found.Link link -> {
                    int depth = link.redirect() ? page.depth : page.depth + 1;
                    Node known = seen.get(link.url());
                    if (known == null && link.parsed() == null) {
                        continue; // a link the task thought known is not: it was a race with nothing; skip it
                    }
                    if (known != null) {
                        if (depth < known.depth) {
                            relax(known, depth, out);
                        }
                        if (link.redirect()) {
                            page.redirectTo = known;
                        } else {
                            links[n++] = known;
                        }
                        continue;
                    }
                    CrawlUrl url = link.parsed();
                    HostQueue host = hosts.get(url.hostKey());
                    if (host != null) {
                        // Skipped or past the depth limit, it is kept for the rest of the crawl too: with the
                        // host's one copy of its names, two strings (~130 bytes) less each. huge skips 100,000.
                        url = host.shared(url);
                        if (host.robotsKnown() && !host.rules().allows(url)) {
                            Node node = recordedOnSight(url, depth, page);
                            out.recorded.add(skipped(node, FailureKind.ROBOTS, host.rules().reason()));
                            continue;
                        }
                    }
                    if (depth > config.maxDepth()) {
                        (beyond == null ? beyond = new ArrayList<>() : beyond).add(url);
                        continue;
                    }
                    Node node = admit(url, depth, link.redirect() ? page.redirects + 1 : 0, page.url.url());
                    if (node != null) {
                        out.admitted(node);
                        if (link.redirect()) {
                            page.redirectTo = node;
                        } else {
                            links[n++] = node;
                        }
                    }
                }
            }
        }
        page.links = n == 0 ? NO_LINKS : Arrays.copyOf(links, n);
        page.beyond = beyond == null ? NO_URLS : beyond.toArray(NO_URLS);
    }

    /** A URL recorded without being queued (robots.txt forbids it, or it is invalid): seen, and done. */
    private Node recordedOnSight(CrawlUrl url, int depth, Node page) {
        Node node = new Node(url, null, depth, 0, page.url.url());
        node.state = State.DONE;
        seen.put(url.url(), node);
        return node;
    }

    /**
     * A shorter path to {@code node}: lower its depth, then its descendants' in turn, admitting links the
     * old depth left beyond the limit. Recursion is bounded: each level lowers a depth.
     */
    private void relax(Node node, int depth, Expansion out) {
        node.depth = depth;
        if (node.state == State.DONE) {
            out.lowered.add(node); // its row was handed to the store before this: fix it after
        }
        if (node.redirectTo != null && depth < node.redirectTo.depth) {
            relax(node.redirectTo, depth, out);
        }
        if (node.links == null) {
            return; // queued or in flight: its expansion will use the new depth
        }
        for (Node child : node.links) {
            if (depth + 1 < child.depth) {
                relax(child, depth + 1, out);
            }
        }
        if (node.beyond.length > 0 && depth + 1 <= config.maxDepth()) {
            List<Node> links = new ArrayList<>(Arrays.asList(node.links));
            List<CrawlUrl> stillBeyond = new ArrayList<>();
            for (CrawlUrl link : node.beyond) {
                Node child = seen.get(link.url());
                if (child == null) {
                    child = admit(link, depth + 1, 0, node.url.url());
                    if (child != null) {
                        out.admitted(child);
                    }
                } else if (depth + 1 < child.depth) {
                    relax(child, depth + 1, out);
                }
                if (child != null) {
                    links.add(child);
                } else {
                    stillBeyond.add(link); // the page limit is reached: keep it, as before
                }
            }
            node.links = links.toArray(NO_LINKS);
            node.beyond = stillBeyond.toArray(NO_URLS);
        }
    }

    private Admitted row(Node node) {
        return new Admitted(jobId, node.url.url(), node.depth, node.redirects, node.referrer);
    }

    private PageRecord skipped(Node node, FailureKind kind, String detail) {
        return new PageRecord(jobId, node.url.url(), node.depth, 0, null, null, 0, 0, 0, kind.label(), detail,
                Instant.now(), Thread.currentThread().getName(), node.referrer, List.of(), null, null, null, 0);
    }

    // ---- handing out

    @Override
    public Lease next(FetchLimit.Slot slot) throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (cancelled || draining) {
                    return null;
                }
                long now = System.nanoTime();
                if (inFlight < config.maxInFlight()) {
                    Lease lease = leaseFromReadyHost(now, slot);
                    if (lease != null) {
                        return lease;
                    }
                }
                if (queued == 0 && inFlight == 0) {
                    return null;
                }
                turns.await(now, 0); // until a host is ready, or a rest or backoff ends
            }
        } finally {
            lock.unlock();
        }
    }

    private Lease leaseFromReadyHost(long now, FetchLimit.Slot slot) {
        HostQueue host;
        while ((host = turns.next(now)) != null) {
            Node node = host.due(now);
            if (node == null) {
                turns.wakeAt(host, host.wakeTime(now));
                continue;
            }
            Lease.Skip skip = host.skipFor(node);
            if (skip != null) {
                host.leaseSkip(node);
                return handOut(host, node, skip, false, slot);
            }
            if (host.busy()) {
                continue; // a lease coming back makes it ready again
            }
            if (host.spacedUntil(now)) {
                turns.wakeAt(host, host.nextStart());
                continue;
            }
            HostGates.Entry entry = gates.tryEnter(host.hostKey, now, this);
            if (entry.resting()) {
                turns.wakeAt(host, entry.restUntilNanos());
                continue;
            }
            if (!entry.entered()) {
                host.waitingForGate = true; // opened() makes it ready again
                continue;
            }
            boolean robots = !host.robotsKnown();
            host.lease(node, now, config.hostDelay().toNanos());
            return handOut(host, node, null, robots, slot);
        }
        return null;
    }

    private Lease handOut(HostQueue host, Node node, Lease.Skip skip, boolean robots, FetchLimit.Slot slot) {
        queued--;
        inFlight++;
        turns.ready(host);
        return new MemoryLease(node, skip, robots, slot);
    }


    /** A permit of a host this frontier found full came free: try it again. */
    @Override
    public void opened(String hostKey) {
        lock.lock();
        try {
            HostQueue host = hosts.get(hostKey);
            if (host != null && host.waitingForGate) {
                host.waitingForGate = false;
                turns.ready(host);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- figures and control

    @Override
    public int queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Map<String, String> waitingHosts() {
        Map<String, String> why = new java.util.TreeMap<>();
        long now = System.nanoTime();
        lock.lock();
        try {
            robotsWaiting.removeIf(host -> host.waiting(now) == null); // given up, or its robots.txt came
            for (HostQueue host : robotsWaiting) {
                if (why.size() == 3) {
                    break;
                }
                why.put(host.hostKey, host.waiting(now));
            }
        } finally {
            lock.unlock();
        }
        return why;
    }

    @Override
    public Map<String, String> givenUpHosts() {
        lock.lock();
        try {
            return Map.copyOf(givenUp);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void drain() {
        lock.lock();
        try {
            draining = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void cancel() {
        lock.lock();
        try {
            cancelled = true;
            queued = 0;
            hosts.values().forEach(HostQueue::clear);
            turns.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void noteGivenUp(HostQueue host) {
        if (host.givenUp() != null && !givenUp.containsKey(host.hostKey)) {
            givenUp.put(host.hostKey, host.givenUp().detail());
        }
    }

    /** The one implementation of a lease's life, under this frontier's lock. */
    private final class MemoryLease implements Lease {
        private final Node node;
        private final HostQueue host;
        private final int attempt;
        private final int depthAtLease;
        private final long leasedNanos = System.nanoTime();
        private final FetchLimit.Slot slot;
        private Skip skip;
        private boolean robotsUnknown;
        private boolean permitHeld;
        private boolean ended;

        MemoryLease(Node node, Skip skip, boolean robots, FetchLimit.Slot slot) {
            this.node = node;
            this.host = node.host;
            this.attempt = node.attempts + 1;
            this.depthAtLease = node.depth;
            this.skip = skip;
            this.robotsUnknown = robots;
            this.permitHeld = skip == null;
            this.slot = slot;
        }

        @Override public CrawlUrl url() { return node.url; }
        @Override public int depth() { return depthAtLease; }
        @Override public int attempt() { return attempt; }
        @Override public int redirects() { return node.redirects; }
        @Override public String referrer() { return node.referrer; }
        @Override public long leasedNanos() { return leasedNanos; }
        @Override public Skip skip() { return skip; }
        @Override public boolean robotsUnknown() { return robotsUnknown; }

        @Override
        public void robots(Robots.Rules rules) {
            lock.lock();
            try {
                host.robotsKnown(rules);
                robotsWaiting.remove(host);
                robotsUnknown = false;
                if (!rules.allows(node.url)) {
                    skip = new Skip(FailureKind.ROBOTS, rules.reason());
                }
                turns.ready(host);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public List<PageRecord> listed(List<Found> links, String sitemap) throws InterruptedException {
            Expansion out = new Expansion();
            lock.lock();
            try {
                if (ended || cancelled) {
                    return List.of();
                }
                Node origin = new Node(CrawlUrl.of(sitemap), null, 0, 0, null); // a seed-like page at depth 0
                expand(origin, links, out);
            } finally {
                lock.unlock();
            }
            store.saveAdmitted(out.admittedRows, out.recorded);
            return out.recorded;
        }

        @Override
        public void robotsUnreachable(FetchResult.Failed failure) {
            lock.lock();
            try {
                if (ended) {
                    return;
                }
                host.robotsUnreachable(failure, System.nanoTime(), config.robotsRetryFor());
                robotsWaiting.add(host);
                permitHeld = false;
                noteGivenUp(host);
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            gates.exit(host.hostKey, 0);
            slot.close();
        }

        @Override
        public void exchangeOver(RetryPolicy.HostSignal signal) {
            long restUntil = 0;
            lock.lock();
            try {
                if (!permitHeld) {
                    return;
                }
                permitHeld = false;
                restUntil = host.exchangeOver(node, signal, gates, System.nanoTime(), config.hostFailureLimit());
                noteGivenUp(host);
                turns.ready(host);
            } finally {
                lock.unlock();
            }
            // After the host's own state changed: whoever the gate wakes sees the rest and the new count.
            gates.exit(host.hostKey, restUntil);
            slot.close();
        }

        @Override
        public List<PageRecord> complete(PageRecord page, List<Found> links) throws InterruptedException {
            exchangeOver(RetryPolicy.HostSignal.OK); // a no-op after the task's own call
            Expansion out = new Expansion();
            int depth;
            lock.lock();
            try {
                if (ended) {
                    return List.of();
                }
                if (cancelled) {
                    end(); // nothing more is stored for a cancelled job
                    slot.close();
                    return List.of();
                }
                node.state = State.COMPLETING;
                depth = node.depth;
                expand(node, links, out);
            } finally {
                lock.unlock();
            }
            PageRecord stored = page.withDepth(depth);
            try {
                store.saveWithLinks(stored, out.admittedRows, out.recorded);
            } finally {
                lock.lock();
                try {
                    node.state = State.DONE;
                    if (node.depth < depth) {
                        out.lowered.add(node); // a shorter path found while this row was on its way
                    }
                    end();
                } finally {
                    lock.unlock();
                }
                slot.close();
            }
            for (Node lowered : out.lowered) {
                store.lowerDepth(jobId, lowered.url.url(), lowered.depth);
            }
            if (out.recorded.isEmpty()) {
                return List.of(stored);
            }
            List<PageRecord> all = new ArrayList<>(out.recorded);
            all.add(stored);
            return all;
        }

        @Override
        public void retry(Duration delay) {
            exchangeOver(RetryPolicy.HostSignal.OK);
            lock.lock();
            try {
                if (ended) {
                    return;
                }
                node.notBefore = System.nanoTime() + delay.toNanos();
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            slot.close();
        }

        /** Back in its host's queue, unless the job was cancelled. Under the lock. */
        private void requeue(long now) {
            ended = true;
            inFlight--;
            if (!cancelled) {
                turns.requeue(host, node, now);
                queued++;
            }
            changed.signalAll();
        }

        private void end() {
            ended = true;
            inFlight--;
            changed.signalAll();
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
                if (host != null) {
                    host.abandoned(freePermit, robotsUnknown);
                }
                node.notBefore = 0;
                requeue(System.nanoTime());
            } finally {
                lock.unlock();
            }
            if (freePermit) {
                gates.exit(host.hostKey, 0);
            }
            slot.close();
        }
    }
}
