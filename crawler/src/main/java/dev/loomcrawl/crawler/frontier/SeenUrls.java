package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.frontier.Node.State;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.store.Admitted;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Every URL a job in this process has seen, as a graph: each page's links, and the shortest path from a seed to
 * each URL. Concurrent crawls reach pages by long paths first all the time; a page first seen at depth 3 and
 * later linked from depth 1 moves to depth 2, its links are offered again at the new depth ({@link #relax}), and
 * links once past the depth limit are admitted when their page comes closer. So a depth limit admits the same
 * pages in every mode and every run. Guarded by the job's frontier lock, but for {@link #knows}.
 */
final class SeenUrls {
    private static final Node[] NO_LINKS = {};
    private static final CrawlUrl[] NO_URLS = {};

    private final long jobId;
    private final CrawlConfig config;
    private final HostQueues queues;
    /** Read without the lock ({@link #knows}); written under it. */
    private final ConcurrentHashMap<String, Node> seen = new ConcurrentHashMap<>();
    /** Written under the lock, read without it ({@link #full}). */
    private volatile int admitted;

    SeenUrls(long jobId, CrawlConfig config, HostQueues queues) {
        this.jobId = jobId;
        this.config = config;
        this.queues = queues;
    }

    /** Whether {@code url}, exactly as written, was seen. Without the lock. */
    boolean knows(String url) {
        return seen.containsKey(url);
    }

    /** Whether the page limit is reached. Without the lock. */
    boolean full() {
        return admitted >= config.scope().maxPages();
    }

    /** A URL a stopped process stored: seen, counted, its links in the store already. */
    Node stored(Node node) {
        node.links = NO_LINKS;
        node.beyond = NO_URLS;
        seen.put(node.url.url(), node);
        admitted++;
        return node;
    }

    /** Admits a new URL to its host's queue; null past the page limit or after a cancel. */
    @Nullable Node admit(CrawlUrl url, int depth, int redirects, @Nullable String referrer) {
        if (queues.cancelled() || full()) {
            return null;
        }
        HostQueue host = queues.of(url);
        Node node = new Node(host.shared(url), host, depth, redirects, referrer);
        seen.put(url.url(), node);
        admitted++;
        queues.enqueue(node);
        return node;
    }

    /** What one page's completion admits (as rows to store), records on sight, and whose stored depth it lowers. */
    static final class Expansion {
        final List<Admitted> admittedRows = new ArrayList<>();
        final List<PageRecord> recorded = new ArrayList<>();
        final List<Node> lowered = new ArrayList<>();
    }

    /** Takes a page's links: known ones may get a shorter depth, new ones are admitted or recorded on sight. */
    void expand(Node page, List<Lease.Found> found, Expansion out) {
        Node[] links = new Node[found.size()];
        List<CrawlUrl> beyond = null;
        int n = 0;
        for (Lease.Found f : found) {
            switch (f) {
                case Lease.Found.Link link -> {
                    int depth = link.redirect() ? page.depth : page.depth + 1;
                    Node known = seen.get(link.url());
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
                    if (url == null) {
                        continue; // a link the task thought known is not: it was a race with nothing; skip it
                    }
                    HostQueue host = queues.get(url.hostKey());
                    boolean allowed = false; // by the host's robots.txt, known now
                    if (host != null) {
                        // Skipped or past the depth limit, it is kept for the rest of the crawl too: with the
                        // host's one copy of its names, two strings (~130 bytes) less each. huge skips 100,000.
                        url = host.shared(url);
                        if (host.rules() instanceof Robots.Rules rules) {
                            if (!link.allowedBy(rules)) {
                                Node node = recordedOnSight(url, depth, page);
                                out.recorded.add(skipped(node, FailureKind.ROBOTS, rules.reason()));
                                continue;
                            }
                            allowed = true;
                        }
                    }
                    if (depth > config.scope().maxDepth()) {
                        (beyond == null ? beyond = new ArrayList<>() : beyond).add(url);
                        continue;
                    }
                    Node node = admit(url, depth, link.redirect() ? page.redirects + 1 : 0, page.url.url());
                    if (node != null) {
                        node.robotsAllowed = allowed;
                        out.admittedRows.add(row(node));
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
        Node[] children = node.links;
        CrawlUrl[] beyond = node.beyond;
        if (children == null || beyond == null) {
            return; // queued or in flight: its expansion will use the new depth
        }
        for (Node child : children) {
            if (depth + 1 < child.depth) {
                relax(child, depth + 1, out);
            }
        }
        if (beyond.length > 0 && depth + 1 <= config.scope().maxDepth()) {
            List<Node> links = new ArrayList<>(Arrays.asList(children));
            List<CrawlUrl> stillBeyond = new ArrayList<>();
            for (CrawlUrl link : beyond) {
                Node child = seen.get(link.url());
                if (child == null) {
                    child = admit(link, depth + 1, 0, node.url.url());
                    if (child != null) {
                        out.admittedRows.add(row(child));
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

    Admitted row(Node node) {
        return new Admitted(jobId, node.url.url(), node.depth, node.redirects, node.referrer);
    }

    private PageRecord skipped(Node node, FailureKind kind, @Nullable String detail) {
        return PageRecord.onSight(jobId, node.url.url(), node.depth, node.referrer, kind.label(), detail);
    }
}
