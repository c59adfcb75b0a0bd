package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlUrl;
import dev.loomcrawl.crawler.FailureKind;
import dev.loomcrawl.crawler.frontier.HostQueue.Node;
import dev.loomcrawl.crawler.frontier.HostQueue.State;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.store.Admitted;
import dev.loomcrawl.crawler.store.PageRecord;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.ResumeState;
import dev.loomcrawl.crawler.revisit.Visit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A job's URLs in this process's memory, its results in the {@link PageStore}: every admitted URL is
 * written to the store before the page that found it, so a restarted process can rebuild the job ({@link
 * #restore}). A million queued URLs cost a million small objects.
 *
 * <p>Depth is the shortest path from a seed, whatever order fetches finish in. Concurrent crawls reach
 * pages by long paths first all the time; a page first seen at depth 3 and later linked from depth 1 moves
 * to depth 2, its links are offered again at the new depth, and a depth already stored is lowered in the
 * store after the row that holds it. So a depth limit admits the same pages in every mode and every run.
 */
public final class MemoryBackend implements FrontierBackend {
    private static final Node[] NO_LINKS = {};
    private static final CrawlUrl[] NO_URLS = {};

    private final long jobId;
    private final CrawlConfig config;
    private final PageStore store;
    private final HostQueues queues;
    private final ReentrantLock lock;
    /** Read without the lock ({@link #knows}); written under it. */
    private final ConcurrentHashMap<String, Node> seen = new ConcurrentHashMap<>();
    private int admitted;

    MemoryBackend(long jobId, CrawlConfig config, HostQueues queues, PageStore store) {
        this.jobId = jobId;
        this.config = config;
        this.queues = queues;
        this.lock = queues.lock();
        this.store = store;
    }

    /** A frontier of a job in this process, or of one a stopped process left ({@code resumed}, else null). */
    public static Frontier frontier(long jobId, CrawlConfig config, HostGates gates, PageStore store, ResumeState resumed) {
        return frontier(jobId, config, gates, store, resumed, Revisits.of(config));
    }

    /**
     * A frontier whose stored URLs are visited again as {@code revisits} says: a continuous job resumed, or
     * a recrawl ({@link Revisits#once}) of a job a process left.
     */
    public static Frontier frontier(long jobId, CrawlConfig config, HostGates gates, PageStore store,
            ResumeState resumed, Revisits revisits) {
        HostQueues queues = new HostQueues(config);
        MemoryBackend backend = new MemoryBackend(jobId, config, queues, store);
        if (resumed != null) {
            backend.restore(resumed, revisits);
        }
        return new Frontier(config, gates, queues, backend, revisits);
    }

    @Override
    public boolean allHere() {
        return true;
    }

    @Override
    public boolean serves(HostQueue host, long now) {
        return true;
    }

    @Override
    public Claim claim(HostQueue host, long now, boolean request) {
        return Claim.NONE;
    }

    // ---- admission

    @Override
    public void start(List<CrawlUrl> seeds) throws InterruptedException {
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
    void restore(ResumeState state, Revisits revisits) {
        Instant now = Instant.now();
        long nowNanos = System.nanoTime();
        lock.lock();
        try {
            for (Admitted a : state.admitted()) {
                CrawlUrl.parse(a.url()).ifPresent(url -> {
                    Visit visit = revisits.resumed(state.visits().get(url.url()));
                    if (visit != null && !seen.containsKey(url.url())) {
                        HostQueue host = queues.of(url); // stored, and due again: queued for its next visit
                        Node node = new Node(host.shared(url), host, a.depth(), a.redirects(), a.referrer());
                        node.visit = visit;
                        node.links = NO_LINKS; // its links are in the store already
                        node.beyond = NO_URLS;
                        node.notBefore = Revisits.dueNanos(visit, now, nowNanos);
                        seen.put(url.url(), node);
                        admitted++;
                        queues.requeue(node, nowNanos);
                    } else if (state.stored().contains(url.url())) {
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
        if (queues.cancelled() || admitted >= config.scope().maxPages()) {
            return null;
        }
        HostQueue host = queues.of(url);
        Node node = new Node(host.shared(url), host, depth, redirects, referrer);
        seen.put(url.url(), node);
        admitted++;
        queues.enqueue(node);
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
                    HostQueue host = queues.get(url.hostKey());
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
                    if (depth > config.scope().maxDepth()) {
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
        if (HostQueue.stored(node)) {
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
        if (node.beyond.length > 0 && depth + 1 <= config.scope().maxDepth()) {
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
        return PageRecord.onSight(jobId, node.url.url(), node.depth, node.referrer, kind.label(), detail);
    }

    // ---- results

    @Override
    public List<PageRecord> complete(Node node, PageRecord page, List<Lease.Found> links, Revisits.Visited visited)
            throws InterruptedException {
        Expansion out = new Expansion();
        int depth;
        lock.lock();
        try {
            depth = node.depth;
            expand(node, links, out);
        } finally {
            lock.unlock();
        }
        PageRecord stored = page.withDepth(depth);
        boolean revisit = node.visit != null;
        try {
            if (revisit) {
                store.saveRevisit(jobId, node.url.url(), visited.rewrite() == null ? null : stored,
                        visited.change(), out.admittedRows, out.recorded);
            } else {
                store.saveWithLinks(stored, out.admittedRows, out.recorded,
                        visited.change() == null ? List.of() : List.of(visited.change()));
            }
        } finally {
            lock.lock();
            try {
                node.state = State.DONE;
                if (node.depth < depth) {
                    out.lowered.add(node); // a shorter path found while this row was on its way
                }
            } finally {
                lock.unlock();
            }
        }
        for (Node lowered : out.lowered) {
            store.lowerDepth(jobId, lowered.url.url(), lowered.depth);
        }
        if (revisit) {
            return out.recorded; // the URL's row was counted at its first visit; the change feed tells the rest
        }
        if (out.recorded.isEmpty()) {
            return List.of(stored);
        }
        List<PageRecord> all = new ArrayList<>(out.recorded);
        all.add(stored);
        return all;
    }

    @Override
    public List<PageRecord> listed(Node lease, List<Lease.Found> links, String sitemap) throws InterruptedException {
        Expansion out = new Expansion();
        lock.lock();
        try {
            Node origin = new Node(CrawlUrl.of(sitemap), null, 0, 0, null); // a seed-like page at depth 0
            expand(origin, links, out);
        } finally {
            lock.unlock();
        }
        store.saveAdmitted(out.admittedRows, out.recorded);
        return out.recorded;
    }
}
