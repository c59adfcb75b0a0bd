package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.JobRow;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The jobs a {@link Crawler} runs now, by id, and the thread that checkpoints them: every
 * {@link JobRow#CHECKPOINT} each adds its running time to its row, until the crawler closes. An ended job is
 * dropped (with its frontier): its final state is in the store, and a long-running server must not hold every
 * job it ran.
 */
final class RunningJobs implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RunningJobs.class.getName());

    private final ConcurrentHashMap<Long, CrawlJob> jobs = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    RunningJobs() {
        Thread.ofVirtual().name("crawl-checkpoints").start(this::checkpointLoop);
    }

    private void checkpointLoop() {
        try {
            while (!closing.await(JobRow.CHECKPOINT.toMillis(), TimeUnit.MILLISECONDS)) {
                for (CrawlJob job : jobs.values()) {
                    try {
                        job.checkpoint();
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "job " + job.id() + ": its time could not be recorded", e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /** Starts {@code job} and keeps it until it ends (its end calls {@link #forget}). */
    CrawlJob launch(CrawlJob job) {
        jobs.put(job.id(), job);
        job.start();
        return job;
    }

    void forget(CrawlJob job) {
        jobs.remove(job.id(), job);
    }

    Optional<CrawlJob> get(long id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** The live view, for figures that must see jobs started later. */
    Collection<CrawlJob> view() {
        return jobs.values();
    }

    List<CrawlJob> snapshot() {
        return List.copyOf(jobs.values());
    }

    int size() {
        return jobs.size();
    }

    /** Stops the checkpoints; the jobs are the crawler's to suspend first. */
    @Override
    public void close() {
        closing.countDown();
    }
}
