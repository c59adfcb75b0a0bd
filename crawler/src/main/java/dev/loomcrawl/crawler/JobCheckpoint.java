package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.politeness.PolitenessAudit;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.KeyAudit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a running job writes to the store every {@link JobRow#CHECKPOINT}, and once at its end: this run's time
 * and CPU since the last checkpoint, stamping the job alive (a process killed with SIGKILL loses at most one
 * interval of the job's time, and a job whose process died is shown as interrupted), and its politeness audit,
 * only the keys whose figures changed since (a continuous job's thousands of idle keys are not rewritten every
 * second).
 */
final class JobCheckpoint {
    private final long id;
    private final String share;
    private final JobMeter meter;
    private final PolitenessAudit audit;
    private final PageStore store;
    private final ReentrantLock lock = new ReentrantLock();
    /** This run's time already added to the job's row: a checkpoint adds what came since. */
    private double recordedSeconds; // guarded by lock
    private double recordedCpu; // guarded by lock
    /** The audit's figures as the store has them, by key. */
    private final Map<String, KeyAudit> savedAudit = new HashMap<>(); // guarded by lock

    /** @param share "" for a job of this process, a cluster node's id for its share of a cluster job */
    JobCheckpoint(long id, String share, JobMeter meter, PolitenessAudit audit, PageStore store) {
        this.id = id;
        this.share = share;
        this.meter = meter;
        this.audit = audit;
        this.store = store;
    }

    void write() {
        lock.lock();
        try {
            double seconds = meter.seconds();
            double cpu = Math.max(0, meter.cpuSeconds());
            store.jobs().addRunTime(id, seconds - recordedSeconds, Math.max(0, cpu - recordedCpu), false);
            List<KeyAudit> changed = new ArrayList<>();
            for (KeyAudit figures : audit.figures()) {
                if (!figures.equals(savedAudit.get(figures.key()))) {
                    changed.add(figures);
                }
            }
            store.politeness().saveAudit(id, share, changed);
            changed.forEach(figures -> savedAudit.put(figures.key(), figures)); // saved: a failed write is tried again
            recordedSeconds = seconds;
            recordedCpu = Math.max(recordedCpu, cpu);
        } finally {
            lock.unlock();
        }
    }
}
