package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.WarcOutput;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.MemoryBackend;
import dev.loomcrawl.crawler.frontier.Revisits;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.store.StoredCounts;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobStatus;
import org.jspecify.annotations.Nullable;

/**
 * How a job begins in this process, and what it is given: the one argument a {@link CrawlJob} and its parts are
 * made from.
 *
 * @param frontier where its URLs come from
 * @param meter its counts, going on from what earlier runs stored when it runs again
 * @param warc where its fetches are archived, opened by the caller so that a bad path fails the start; null: none
 * @param resumed whether it ran before: its politeness audit goes on from what it stored
 * @param share {@link #THIS_PROCESS} for a job of this process; else the name of this process's share of a job
 *     many processes share (a cluster node's id): the cluster, not this run's end, then decides the job's status
 */
record JobStart(long id, CrawlConfig config, Frontier frontier, JobMeter meter, Hooks hooks,
        @Nullable WarcOutput warc, boolean resumed, String share) {
    static final String THIS_PROCESS = "";

    /** A new job of this process, its row created now. */
    static JobStart fresh(Engine engine, CrawlConfig config, Hooks hooks) {
        WarcOutput warc = warcOf(config);
        long id = engine.store().jobs().create(config.execution().mode().label(), config.execution().poolSize(),
                ConfigCodec.toJson(config), false);
        Frontier frontier = MemoryBackend.frontier(id, config, engine.gates(), engine.store(), null);
        return new JobStart(id, config, frontier, new JobMeter(engine.totals(), 0, 0, 0), hooks, warc, false,
                THIS_PROCESS);
    }

    /**
     * A stored job run once more in this process, from what it stored: a resume, or a recrawl ({@code revisits}
     * says which); its counts go on from its stored rows.
     */
    static JobStart again(Engine engine, long id, CrawlConfig config, Hooks hooks, Revisits revisits) {
        WarcOutput warc = warcOf(config);
        PageStore store = engine.store();
        Frontier frontier = MemoryBackend.frontier(id, config, engine.gates(), store,
                revisits.revisits() ? store.revisitState(id) : store.resumeState(id), revisits);
        StoredCounts before = store.storedCounts(id);
        store.jobs().update(id, JobStatus.RUNNING.label(), null);
        store.jobs().addRunTime(id, 0, 0, true);
        JobMeter meter = new JobMeter(engine.totals(), before.pages(), before.failed(), before.skipped());
        return new JobStart(id, config, frontier, meter, hooks, warc, true, THIS_PROCESS);
    }

    /**
     * This process's share, named {@code share}, of a job other processes run too, its URLs from {@code frontier};
     * its WARC file, if {@code config} names one, holds this share's fetches.
     */
    static JobStart share(Engine engine, long id, String share, CrawlConfig config, Frontier frontier) {
        return new JobStart(id, config, frontier, new JobMeter(engine.totals(), 0, 0, 0), Hooks.NONE, warcOf(config),
                false, share);
    }

    /** The job's WARC file, opened now so that a path that cannot be written fails the start, not the job. */
    private static @Nullable WarcOutput warcOf(CrawlConfig config) {
        String file = config.output().warcFile();
        return file == null ? null : WarcOutput.open(file, CrawlConfig.DEFAULT_USER_AGENT);
    }

    /** Whether this is a share of a cluster job. */
    boolean cluster() {
        return !share.equals(THIS_PROCESS);
    }
}
