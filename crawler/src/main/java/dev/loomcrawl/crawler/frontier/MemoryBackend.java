package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.frontier.Node.State;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.store.Admitted;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.ResumeState;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A job's URLs in this process's memory, its results in the {@link PageStore}: every admitted URL is
 * written to the store before the page that found it, so a restarted process can rebuild the job ({@link
 * #restore}). A million queued URLs cost a million small objects.
 *
 * <p>Depth is the shortest path from a seed, whatever order fetches finish in ({@link SeenUrls}): a depth
 * already stored is lowered in the store after the row that holds it.
 */
public final class MemoryBackend implements FrontierBackend {
    private final long jobId;
    private final PageStore store;
    private final HostQueues queues;
    private final ReentrantLock lock;
    private final SeenUrls seen;

    MemoryBackend(long jobId, CrawlConfig config, HostQueues queues, PageStore store) {
        this.jobId = jobId;
        this.queues = queues;
        this.lock = queues.lock();
        this.store = store;
        this.seen = new SeenUrls(jobId, config, queues);
    }

    /** A frontier of a job in this process, or of one a stopped process left ({@code resumed}, else null). */
    public static Frontier frontier(long jobId, CrawlConfig config, HostGates gates, PageStore store, @Nullable ResumeState resumed) {
        return frontier(jobId, config, gates, store, resumed, Revisits.of(config));
    }

    /**
     * A frontier whose stored URLs are visited again as {@code revisits} says: a continuous job resumed, or
     * a recrawl ({@link Revisits#once}) of a job a process left.
     */
    public static Frontier frontier(long jobId, CrawlConfig config, HostGates gates, PageStore store,
            @Nullable ResumeState resumed, Revisits revisits) {
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
                if (!seen.knows(seed.url())) {
                    Node node = seen.admit(seed, 0, 0, null);
                    if (node != null) {
                        rows.add(seen.row(node));
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
        lock.lock();
        try {
            for (Admitted a : state.admitted()) {
                CrawlUrl.parse(a.url()).ifPresent(url -> {
                    Visit visit = revisits.resumed(state.visits().get(url.url()));
                    if (visit != null && !seen.knows(url.url())) {
                        HostQueue host = queues.of(url); // stored, and due again: queued for its next visit
                        queues.enqueueDue(seen.stored(new Node(host.shared(url), host, a.depth(), a.redirects(),
                                a.referrer())), visit);
                    } else if (state.stored().contains(url.url())) {
                        seen.stored(new Node(url, null, a.depth(), a.redirects(), a.referrer())).state = State.DONE;
                    } else if (!seen.knows(url.url())) {
                        Node node = seen.admit(url, a.depth(), a.redirects(), a.referrer());
                        if (node != null) {
                            node.triedBefore(state.attempts().getOrDefault(url.url(), 0)); // by an earlier run
                        }
                    }
                });
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void retried(Node node, int attempts) throws InterruptedException {
        store.saveRetry(jobId, node.url.url(), attempts);
    }

    @Override
    public boolean knows(String url) {
        return seen.knows(url);
    }

    @Override
    public boolean full() {
        return seen.full();
    }

    // ---- results

    @Override
    public List<PageRecord> complete(Node node, PageRecord page, List<Lease.Found> links, Revisits.Visited visited)
            throws InterruptedException {
        SeenUrls.Expansion out = new SeenUrls.Expansion();
        int depth;
        lock.lock();
        try {
            depth = node.depth;
            seen.expand(node, links, out);
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
        SeenUrls.Expansion out = new SeenUrls.Expansion();
        lock.lock();
        try {
            Node origin = new Node(CrawlUrl.of(sitemap), null, 0, 0, null); // a seed-like page at depth 0
            seen.expand(origin, links, out);
        } finally {
            lock.unlock();
        }
        store.saveAdmitted(out.admittedRows, out.recorded);
        return out.recorded;
    }
}
