package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.ExecutionMode;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** The threads a crawler runs on: its URL tasks' (by {@link ExecutionMode}) and its parsers'. */
final class CrawlThreads {
    private CrawlThreads() {}

    /**
     * The one place that builds a crawl's executor.
     *
     * @param poolSize platform threads for {@link ExecutionMode#POOL}; ignored for {@link ExecutionMode#VIRTUAL}
     * @param virtualStarted counts the virtual threads the executor starts
     */
    static ExecutorService forTasks(ExecutionMode mode, int poolSize, LongAdder virtualStarted) {
        return switch (mode) {
            case VIRTUAL -> Executors.newThreadPerTaskExecutor(
                    counting(Thread.ofVirtual().name("crawl-vt-", 0).factory(), virtualStarted));
            case POOL -> handOff(poolSize, Thread.ofPlatform().name("crawl-pool-", 0).daemon(true).factory());
        };
    }

    /**
     * The threads a crawler parses pages on, the same in both modes: a few platform threads (one per core),
     * while the URL's task waits. Jsoup keeps its buffers (bytes, chars, string caches, builders) in
     * thread-local pools; on a virtual thread, which lives for one URL, every parse would build those pools
     * afresh and throw them away: about 30 KB of garbage and a dozen soft references per page. On a parser
     * thread they are reused for the crawler's life. The crawler closes them with itself.
     */
    static ExecutorService parsers() {
        return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(),
                Thread.ofPlatform().name("crawl-parse-", 0).daemon().factory());
    }

    /**
     * A fixed pool of {@code size} threads with no queue: {@code execute} waits until a thread is free and hands
     * the task to it. So a crawl's dispatcher takes a URL's lease (and its host permit) only when a thread can
     * run it at once: no URL sits in an executor queue holding a host permit another job could use, and "in
     * flight" means fetching, in both modes.
     *
     * <p>Its {@code close()} returns when its threads have ended, not only its tasks: a pool's
     * {@code awaitTermination} returns while the threads are still exiting (200 of them were still alive after
     * it, and after a {@code System.gc()}), and the next job would count them as its own platform threads.
     */
    static ExecutorService handOff(int size, ThreadFactory factory) {
        return new HandOffPool(size, factory);
    }

    private static final class HandOffPool extends ThreadPoolExecutor {
        private final Queue<Thread> threads;

        HandOffPool(int size, ThreadFactory factory) {
            this(size, factory, new ConcurrentLinkedQueue<>());
        }

        private HandOffPool(int size, ThreadFactory factory, Queue<Thread> threads) {
            super(size, size, 0, TimeUnit.MILLISECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = factory.newThread(task);
                if (thread != null) {
                    threads.add(thread);
                }
                return thread;
            }, (task, pool) -> {
                if (pool.isShutdown()) {
                    throw new RejectedExecutionException("the pool is shut down");
                }
                try {
                    pool.getQueue().put(task); // waits for a thread to take it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RejectedExecutionException("interrupted while waiting for a free thread");
                }
            });
            this.threads = threads;
        }

        @Override
        public void close() {
            super.close(); // tasks done, workers gone from the pool
            boolean interrupted = false;
            for (Thread thread : threads) {
                while (thread.isAlive()) {
                    try {
                        thread.join(); // its last steps: out of the worker loop and off the JVM's thread list
                    } catch (InterruptedException e) {
                        interrupted = true; // as the default close(): finish waiting, keep the interrupt
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static ThreadFactory counting(ThreadFactory factory, LongAdder started) {
        return task -> {
            started.increment();
            return factory.newThread(task);
        };
    }
}
