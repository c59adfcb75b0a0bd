package dev.loomcrawl.crawler;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;

/**
 * How URL tasks are run. This is the only thing that differs between the modes: the task code, the
 * HTTP client, the per-host limits and the storage are the same.
 */
public enum ExecutionMode {
    /** One new virtual thread per URL, never pooled: {@code crawl-vt-N}. */
    VIRTUAL,
    /** The same tasks on a fixed pool of platform threads: {@code crawl-pool-N}. */
    POOL;

    /**
     * The one place that builds a crawl's executor.
     *
     * @param poolSize platform threads for {@link #POOL}; ignored for {@link #VIRTUAL}
     */
    public ExecutorService newExecutor(int poolSize) {
        return switch (this) {
            case VIRTUAL -> Executors.newThreadPerTaskExecutor(counting(Thread.ofVirtual().name("crawl-vt-", 0).factory()));
            case POOL -> Executors.newFixedThreadPool(poolSize, Thread.ofPlatform().name("crawl-pool-", 0).daemon(true).factory());
        };
    }

    private static final LongAdder VIRTUAL_THREADS_STARTED = new LongAdder();

    /** Virtual threads started for URL tasks in this JVM, by every job so far. */
    public static long virtualThreadsStarted() {
        return VIRTUAL_THREADS_STARTED.sum();
    }

    static ThreadFactory counting(ThreadFactory factory) {
        return task -> {
            VIRTUAL_THREADS_STARTED.increment();
            return factory.newThread(task);
        };
    }

    /** Parses {@code virtual} or {@code pool}, case-insensitively. */
    public static ExecutionMode parse(String text) {
        for (ExecutionMode mode : values()) {
            if (mode.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("mode must be 'virtual' or 'pool', was '" + text + "'");
    }

    /** Lower-case name as used on the command line and in JSON. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
