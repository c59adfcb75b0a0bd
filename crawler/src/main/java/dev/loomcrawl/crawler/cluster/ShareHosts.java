package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.frontier.HostQueue;
import dev.loomcrawl.crawler.frontier.HostQueues;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.frontier.Node;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One cluster job's URLs on this node: a queue for each host the node holds ({@link ShareHost}), filled from the
 * database by {@link HostFeeder} (a few hundred URLs at a time, and on a continuous job its stored URLs as they
 * come due), and dropped when the hold ends or changes its epoch. Its state is guarded by the job's frontier lock
 * ({@link HostQueues#lock}).
 */
final class ShareHosts {
    /** Links of a held host found here join its local queue while it is shorter than this; the rest wait in the database. */
    private static final int LOCAL_CAP = 2_000;

    private final CrawlConfig config;
    private final Membership node;
    private final HostQueues queues;
    private final ReentrantLock lock;
    private final String agentToken;
    private final HashMap<String, ShareHost> hosts = new HashMap<>();
    /** When each held host's URLs were last asked for. */
    private final HashMap<String, Long> asked = new HashMap<>();
    private final HostFeeder feeder;
    /** Whether the job revisits its stored URLs (continuous): they come back from the database when due. */
    private final boolean revisits;
    private boolean stopped;

    ShareHosts(long jobId, CrawlConfig config, Membership node, HostQueues queues) {
        this.config = config;
        this.node = node;
        this.queues = queues;
        this.lock = queues.lock();
        this.agentToken = Robots.productToken(config.fetch().userAgent());
        this.revisits = config.freshness().continuous();
        this.feeder = new HostFeeder(jobId, revisits, node, this);
    }

    /** Starts loading the URLs of the hosts the node holds. */
    void start() {
        feeder.start();
    }

    /** A host this node now holds, or one whose queue ran short: load its URLs. */
    void want(String hostKey) {
        feeder.want(hostKey);
    }

    boolean stopped() {
        lock.lock();
        try {
            return stopped;
        } finally {
            lock.unlock();
        }
    }

    /** Whether a held host has nothing waiting here and was not asked for within {@code recheckNanos}. */
    boolean shortOf(String hostKey, long now, long recheckNanos) {
        lock.lock();
        try {
            ShareHost local = hosts.get(hostKey);
            Long at = asked.get(hostKey);
            return (local == null || local.queue.size() == 0) && (at == null || now - at > recheckNanos);
        } finally {
            lock.unlock();
        }
    }

    /**
     * What a load of a host under {@code hold} asks the database for: its URLs but for those here, and its
     * robots.txt unless it is known here.
     */
    record Loading(List<String> except, boolean robotsKnown) {}

    Loading loading(String hostKey, HostHold hold) {
        lock.lock();
        try {
            ShareHost local = hosts.get(hostKey);
            asked.put(hostKey, System.nanoTime());
            if (local == null || local.epoch != hold.epoch()) {
                return new Loading(List.of(), !config.politeness().respectRobots());
            }
            return new Loading(List.copyOf(local.urls), !config.politeness().respectRobots() || local.queue.robotsKnown());
        } finally {
            lock.unlock();
        }
    }

    /**
     * A host's URLs as the database had them, and its robots.txt (null: not asked), into its queue here; the
     * URLs join with robots.txt, so none is handed out to fetch it again. {@code more}: the database has more.
     */
    void loaded(String hostKey, ClusterStore.Queued rows, boolean more, ClusterLeases.@Nullable RobotsRow robots) {
        lock.lock();
        try {
            add(rows.links(), rows.attempts());
            ShareHost local = hosts.get(hostKey);
            if (local != null) {
                local.more = more;
                local.robotsLoaded(robots, agentToken);
                queues.ready(local.queue);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stored URLs of held hosts due soon, as the database had them at {@code askedAt} ({@link System#nanoTime}):
     * each waits in its host's queue until it is due. A URL whose visit ended here since is left out: what was
     * read is its schedule before that visit.
     */
    void addDue(List<ClusterStore.Due> due, long askedAt) {
        Instant now = Instant.now();
        lock.lock();
        try {
            if (queues.cancelled() || stopped) {
                return;
            }
            addDue(due, askedAt, now);
            hosts.values().forEach(local -> local.readAt(askedAt));
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock. */
    private void addDue(List<ClusterStore.Due> due, long askedAt, Instant now) {
        for (ClusterStore.Due d : due) {
            Held held = held(d.link());
            if (held == null || held.local.staleFor(held.url.url(), askedAt) || !held.local.urls.add(held.url.url())) {
                continue; // not held here; or visited since the read, or loaded already: waiting here, or in flight
            }
            Visit visit = new Visit(d.etag(), d.lastModified(), d.digest(), d.simhash(), d.status(), d.movedTo(), d.changes(),
                    d.watchedSince(), d.intervalMillis(), now.plusMillis(d.dueInMillis()));
            queues.enqueueDue(held.node(d.link()), visit);
        }
    }

    /** A URL of a host this node holds, and the host's queue here. */
    private record Held(CrawlUrl url, ShareHost local) {
        /** The URL as its host's queue keeps it, with its place in the crawl as the database has it. */
        Node node(ClusterStore.Link link) {
            return new Node(local.queue.shared(url), local.queue, link.depth(), link.redirects(), link.referrer());
        }
    }

    /** {@code link}'s URL and its host's queue here, or null when the node does not hold the host. Under the lock. */
    private @Nullable Held held(ClusterStore.Link link) {
        HostHold hold = node.hold(link.hostKey());
        return hold == null ? null
                : CrawlUrl.parse(link.url()).map(url -> new Held(url, local(url, hold))).orElse(null);
    }

    /** This job's share of a held host, made afresh when the hold is new. Under the lock. */
    private ShareHost local(CrawlUrl url, HostHold hold) {
        ShareHost local = hosts.get(url.hostKey());
        if (local != null && local.epoch == hold.epoch()) {
            return local;
        }
        // The queue of an older hold is dropped.
        local = new ShareHost(queues.fresh(url), hold.epoch(), !config.politeness().respectRobots());
        hosts.put(url.hostKey(), local);
        return local;
    }

    /** URLs into the local queues of hosts this node holds; others stay in the database. Under the lock. */
    private void add(List<ClusterStore.Link> links, Map<String, Integer> attempts) {
        if (queues.cancelled() || stopped) {
            return;
        }
        for (ClusterStore.Link link : links) {
            Held held = held(link);
            if (held == null || held.local.urls.size() >= LOCAL_CAP || !held.local.urls.add(held.url.url())) {
                continue;
            }
            // tried before, by this node or another: its attempts count on
            queues.enqueue(held.node(link).triedBefore(attempts.getOrDefault(link.url(), 0)));
        }
    }

    /** A host no longer held (or held anew): what was loaded here stays queued in the database. Under the lock. */
    private void drop(ShareHost local) {
        queues.drop(local.queue);
        hosts.remove(local.queue.hostKey, local);
    }

    /**
     * Whether the host's queue here is of the node's current hold and ready to hand out: a queue of a hold
     * lost (or renewed under a new epoch) is dropped and loaded afresh, and one whose robots.txt was not looked
     * up yet waits for its load. Under the lock.
     */
    boolean serves(HostQueue host) {
        ShareHost local = hosts.get(host.hostKey);
        HostHold hold = node.hold(host.hostKey);
        if (local == null) {
            return false;
        }
        if (hold == null || hold.epoch() != local.epoch) {
            drop(local); // lost to another node, or held again under a new epoch: load afresh
            if (hold != null) {
                feeder.want(host.hostKey);
            }
            return false;
        }
        if (!local.robotsLooked) {
            feeder.want(host.hostKey); // its load asks for robots.txt too, then makes the host ready again
            return false;
        }
        return true;
    }

    /**
     * Links this node finds join its queues at once; the database is asked only for a backlog it holds
     * beyond what was loaded, or (once a queue is empty, now and then) for links other nodes found.
     */
    void handedOut(HostQueue host) {
        ShareHost local = hosts.get(host.hostKey);
        if (local != null && local.more && host.size() == config.politeness().perHostConcurrency()) {
            feeder.want(host.hostKey);
        }
    }

    void forget(Node url) {
        ShareHost local = hosts.get(url.queue().hostKey);
        if (local != null && local.queue == url.host) {
            local.ended(url.url.url(), revisits, System.nanoTime());
        }
    }

    /** Loads nothing more; a cancelled job's queues are dropped. */
    void stop(boolean cancel) {
        lock.lock();
        try {
            stopped = true;
            if (cancel) {
                List.copyOf(hosts.values()).forEach(this::drop);
            }
        } finally {
            lock.unlock();
        }
        feeder.stop();
    }

    /** The epoch of the hold {@code url} was loaded under, or -1 if its host was dropped since. */
    long epochOf(Node url) {
        lock.lock();
        try {
            return hosts.get(url.queue().hostKey) instanceof ShareHost local && local.queue == url.host ? local.epoch : -1;
        } finally {
            lock.unlock();
        }
    }

    /** URLs the database admitted: into the local queues of held hosts. */
    void addLocked(@Nullable List<ClusterStore.Link> admitted) {
        if (admitted == null) {
            return;
        }
        lock.lock();
        try {
            add(admitted, Map.of());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Why robots.txt forbids a link, when the node knows its host's robots.txt and it does: the link is recorded
     * on sight, as in one process, so it takes nothing from the page limit. Null when it may be followed.
     */
    @Nullable String forbidden(Lease.Found.Link link) {
        CrawlUrl url = link.parsed();
        if (url == null) {
            return null;
        }
        lock.lock();
        try {
            ShareHost local = hosts.get(url.hostKey());
            return local != null && local.queue.rules() instanceof Robots.Rules rules && !link.allowedBy(rules)
                    ? rules.reason() : null;
        } finally {
            lock.unlock();
        }
    }
}
