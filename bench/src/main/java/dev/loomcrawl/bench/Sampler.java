package dev.loomcrawl.bench;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.values.JobProgress;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Samples a running job every {@link #EVERY}: live platform threads, heap, pages, fetches in flight. */
final class Sampler {
    static final Duration EVERY = Duration.ofMillis(100);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    /** One sample; {@code stored} counts pages and failures (URLs fetched), not URLs skipped on sight (robots.txt). */
    record Sample(double seconds, int platformThreads, long heapBytes, long stored, long fetching) {}

    private Sampler() {}

    /** Samples until the job ends; returns the samples. The waiting is the job's own latch, with a timeout. */
    static List<Sample> follow(CrawlJob job) throws InterruptedException {
        List<Sample> samples = new ArrayList<>();
        long start = System.nanoTime();
        do {
            JobProgress p = job.progress();
            samples.add(new Sample((System.nanoTime() - start) / 1e9, THREADS.getThreadCount(),
                    MEMORY.getHeapMemoryUsage().getUsed(), p.pages() + p.failed(), p.fetching()));
        } while (!job.await(EVERY));
        return samples;
    }
}
