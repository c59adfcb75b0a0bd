package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.frontier.HostQueue;
import dev.loomcrawl.crawler.politeness.Robots;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One held host's share of a cluster job on this node ({@link ShareHosts}): its queue as long as the hold's epoch
 * lasts, and which of its URLs are here. Guarded by the job's frontier lock.
 */
final class ShareHost {
    final HostQueue queue;
    final long epoch;
    /** URLs loaded here: queued or in flight. */
    final Set<String> urls = new HashSet<>();
    /** A continuous job's URLs whose visit ended here, with when: a due-load read before then is stale for them. */
    private final HashMap<String, Long> ended = new HashMap<>();
    /** The last load filled a whole batch: the database has more of this host's URLs than are here. */
    boolean more;
    /** Whether the database was asked for the host's robots.txt (nothing is handed out before). */
    boolean robotsLooked;

    ShareHost(HostQueue queue, long epoch, boolean robotsLooked) {
        this.queue = queue;
        this.epoch = epoch;
        this.robotsLooked = robotsLooked;
    }

    /** The host's robots.txt as the database had it (null: not asked); a robots.txt known here stays. */
    void robotsLoaded(ClusterLeases.@Nullable RobotsRow robots, String agentToken) {
        if (robots != null && !queue.robotsKnown()) {
            queue.robotsKnown(Robots.of(robots.url() == null || robots.body() == null ? null
                    : new Robots.Text(robots.url(), robots.body(), robots.contentType()), agentToken), System.nanoTime());
        }
        robotsLooked = true;
    }

    /** A URL's visit ended here at {@code at} ({@link System#nanoTime}); {@code revisits}: it comes due again. */
    void ended(String url, boolean revisits, long at) {
        urls.remove(url);
        if (revisits) {
            ended.put(url, at);
        }
    }

    /** Whether a schedule of {@code url} read at {@code askedAt} is older than its last visit here. */
    boolean staleFor(String url, long askedAt) {
        Long at = ended.get(url);
        return at != null && at - askedAt > 0;
    }

    /** Reads from {@code askedAt} on are past every visit ended by then: those ends need not be kept. */
    void readAt(long askedAt) {
        ended.values().removeIf(at -> at - askedAt <= 0);
    }
}
