package dev.loomcrawl.crawler.cluster;

import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The thread that reads one cluster job's URLs from the database for this node, into {@link ShareHosts}: a host
 * wanted (newly held, or run short) at once; every second the held hosts with nothing loaded (other nodes may
 * have found URLs of theirs) and, on a continuous job, the stored URLs coming due.
 */
final class HostFeeder {
    /** URLs of one host loaded at a time. */
    private static final int BATCH = 500;
    /** How often a held host with nothing loaded asks the database again, and due URLs are looked for. */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A continuous job's stored URLs due this soon are loaded, to wait in their host's queue until due. */
    private static final long DUE_AHEAD_MILLIS = 2_000;
    /** Stored URLs of one host loaded as due at a time (a host with a backlog does not hold back the others). */
    private static final int DUE_PER_HOST = 50;

    private final long jobId;
    /** Whether the job revisits its stored URLs (it is continuous): they come back from the database when due. */
    private final boolean revisits;
    private final Membership node;
    private final ClusterStore db;
    private final ShareHosts held;
    private final LinkedBlockingQueue<String> wanted = new LinkedBlockingQueue<>();
    private long dueLoadedAt;
    private volatile @Nullable Thread thread;

    HostFeeder(long jobId, boolean revisits, Membership node, ShareHosts held) {
        this.jobId = jobId;
        this.revisits = revisits;
        this.node = node;
        this.db = node.db();
        this.held = held;
    }

    /** Starts loading the URLs of the hosts the node holds. */
    void start() {
        thread = Thread.ofVirtual().name("cluster-feed-" + jobId).start(this::run);
        node.holdKeys().forEach(wanted::add);
    }

    /** A host this node now holds, or one whose queue ran short: load its URLs. */
    void want(String hostKey) {
        wanted.add(hostKey);
    }

    void stop() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void run() {
        try {
            while (!held.stopped()) {
                String hostKey = wanted.poll(RECHECK_NANOS, TimeUnit.NANOSECONDS);
                try {
                    long now = System.nanoTime();
                    if (revisits && now - dueLoadedAt >= RECHECK_NANOS) {
                        dueLoadedAt = now;
                        loadDue();
                    }
                    if (hostKey != null) {
                        load(hostKey);
                        continue;
                    }
                    for (String key : node.holdKeys()) {
                        if (held.shortOf(key, now, RECHECK_NANOS)) {
                            load(key);
                        }
                    }
                } catch (RuntimeException e) {
                    // The database is away: say so (at most once a minute), keep the host wanted, try again shortly.
                    node.trouble("loading URLs of job " + jobId, e);
                    if (hostKey != null) {
                        wanted.add(hostKey);
                    }
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(RECHECK_NANOS));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the job is over
        }
    }

    /** A held host's URLs not loaded here yet, with its robots.txt first (once per hold). */
    private void load(String hostKey) {
        HostHold hold = node.hold(hostKey);
        if (hold == null) {
            return;
        }
        ShareHosts.Loading loading = held.loading(hostKey, hold);
        ClusterLeases.RobotsRow robots = loading.robotsKnown() ? null : db.leases().robots(hostKey);
        ClusterStore.Queued rows = db.queued(jobId, hostKey, loading.except(), BATCH);
        held.loaded(hostKey, rows, rows.links().size() == BATCH, robots);
    }

    /** The stored URLs of held hosts due soon. */
    private void loadDue() {
        Set<String> keys = node.holdKeys();
        if (!keys.isEmpty()) {
            long askedAt = System.nanoTime();
            held.addDue(db.due(jobId, keys, DUE_AHEAD_MILLIS, DUE_PER_HOST), askedAt);
        }
    }
}
