package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cluster jobs this node runs a share of, kept in step with the database by the heartbeat ({@link #follow}):
 * a running cluster job this node does not run yet is started here, one cancelled anywhere is cancelled here,
 * and one done (nothing left to fetch, whichever node noticed) ends here.
 */
final class NodeShares {
    private final Membership node;
    private final Crawler crawler;
    private final PageStore store;
    private final ClusterStore db;
    private final ClusterReports reports;
    private final ConcurrentHashMap<Long, ClusterBackend> frontiers = new ConcurrentHashMap<>();
    /** The politeness key of each cluster job this node runs: beyond host, hosts of one key go to one node. */
    private final ConcurrentHashMap<Long, PolitenessKey> kinds = new ConcurrentHashMap<>();
    private final ReentrantLock launching = new ReentrantLock();

    NodeShares(Membership node, Crawler crawler, ClusterReports reports) {
        this.node = node;
        this.crawler = crawler;
        this.store = crawler.store();
        this.db = node.db();
        this.reports = reports;
    }

    /**
     * Runs this node's share of a job, once: the heartbeat may find a job this node is creating right now. A
     * lock, not {@code synchronized}: starting a share reads and writes the database.
     */
    CrawlJob launch(long id, CrawlConfig config) {
        launching.lock();
        try {
            if (frontiers.containsKey(id)) {
                return crawler.job(id).orElseThrow();
            }
            ClusterBackend frontier = ClusterBackend.of(id, config, crawler.gates(), node);
            reports.began(id);
            kinds.put(id, config.politeness().politenessKey());
            frontiers.put(id, frontier);
            try {
                return crawler.runShare(id, node.nodeId(), here(config), frontier.frontier(),
                        job -> ended(job, frontier));
            } catch (RuntimeException e) {
                // A share that did not start (its WARC part cannot be opened, say) is tried again at the next heartbeat.
                frontiers.remove(id, frontier);
                kinds.remove(id);
                throw e;
            }
        } finally {
            launching.unlock();
        }
    }

    /**
     * The job's config as this node runs it: a job that keeps a WARC file names it, and this node writes its part
     * in its own directory, or none when it has none ({@link NodeSettings#warcPart}).
     */
    private CrawlConfig here(CrawlConfig config) {
        String warc = config.output().warcFile();
        if (warc == null) {
            return config;
        }
        Path part = node.settings().warcPart(warc);
        return config.toBuilder().warcFile(part == null ? null : part.toString()).build();
    }

    /** This node's share of a job has ended: its last figures written, the job forgotten. */
    private void ended(CrawlJob job, ClusterBackend frontier) {
        reports.ended(job, () -> {
            frontiers.remove(job.id(), frontier);
            kinds.remove(job.id());
        }, node::trouble);
    }

    boolean runs(long id) {
        return frontiers.containsKey(id);
    }

    boolean any() {
        return !frontiers.isEmpty();
    }

    /** The politeness keys of the jobs run here. */
    Set<PolitenessKey> kinds() {
        return Set.copyOf(kinds.values());
    }

    /** The crawler's jobs that are this node's shares. */
    List<CrawlJob> jobs() {
        return frontiers.keySet().stream().map(crawler::job).flatMap(Optional::stream).toList();
    }

    /** A host this node now holds: every job run here loads its URLs of it. */
    void held(String hostKey) {
        frontiers.values().forEach(f -> f.held(hostKey));
    }

    /** Hands out nothing more in any share (the node is closing). */
    void drainAll() {
        frontiers.values().forEach(f -> f.frontier().drain());
    }

    /**
     * Marks done the cluster jobs with nothing left to fetch; starts those this node does not run yet (unless
     * {@code leaving}); cancels here those cancelled; ends here those done.
     */
    void follow(boolean leaving) {
        for (long id : db.finishDone()) {
            reports.writeSummary(id);
        }
        Set<Long> unfinished = new HashSet<>();
        for (JobRow row : store.jobs().unfinished()) {
            unfinished.add(row.id());
            if (!leaving && row.cluster() && !frontiers.containsKey(row.id()) && row.status().equals("running")) {
                try {
                    launch(row.id(), ConfigCodec.fromJson(row.config()));
                } catch (ConfigException e) {
                    node.trouble("job " + row.id() + " (unreadable config)", e);
                }
            }
        }
        // Only a job run here missing from that list needs its row read: cancelled, or done (or just created).
        for (Map.Entry<Long, ClusterBackend> e : frontiers.entrySet()) {
            if (unfinished.contains(e.getKey())) {
                continue;
            }
            store.jobs().find(e.getKey()).ifPresent(row -> {
                if (row.status().equals("cancelled")) {
                    crawler.job(row.id()).ifPresent(CrawlJob::cancel);
                } else if (!row.unfinished()) { // a job created here since the list was read is running
                    e.getValue().frontier().finish();
                }
            });
        }
    }
}
