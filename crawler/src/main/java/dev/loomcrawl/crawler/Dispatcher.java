package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.values.CrawlConfig;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A job's dispatcher: takes a fetch slot, waits for the frontier's next lease, and hands it to the executor of
 * the job's {@link ExecutionMode} as one {@link UrlTask}, until the frontier has nothing more. The only thing
 * that differs between {@code --mode=virtual} and {@code --mode=pool} is the executor it makes. A cancel
 * interrupts it, but only while it dispatches: never while the job writes the store.
 */
final class Dispatcher {
    private final long jobId;
    private final CrawlConfig.Execution execution;
    private final Engine engine;
    private final Frontier frontier;
    private final UrlTask task;
    private final BooleanSupplier cancelled;
    private final BooleanSupplier stopNow;
    /** The dispatching thread while it may be interrupted. */
    private @Nullable Thread interruptible; // guarded by interruptGuard
    private final ReentrantLock interruptGuard = new ReentrantLock();

    /**
     * @param cancelled whether the job was cancelled: fetches in progress are interrupted, not stored
     * @param stopNow whether the job stops at once but stays resumable (its fetches in progress are fetched again)
     */
    Dispatcher(JobStart start, Engine engine, UrlTask task, BooleanSupplier cancelled, BooleanSupplier stopNow) {
        this.jobId = start.id();
        this.execution = start.config().execution();
        this.engine = engine;
        this.frontier = start.frontier();
        this.task = task;
        this.cancelled = cancelled;
        this.stopNow = stopNow;
    }

    /**
     * Dispatches on the calling thread until the frontier hands out nothing more; on a suspend, fetches in
     * progress finish first. Returns no longer interruptible.
     *
     * @throws InterruptedException when cancelled (or stopped at once)
     */
    void run() throws InterruptedException {
        interruptible(Thread.currentThread());
        try {
            if (cancelled.getAsBoolean() || stopNow.getAsBoolean()) {
                throw new InterruptedException("job " + jobId + " stopped before the first dispatch");
            }
            dispatch();
        } finally {
            interruptible(null);
        }
    }

    private void dispatch() throws InterruptedException {
        // try-with-resources: close() waits for every running task before the job is declared over.
        try (ExecutorService executor = CrawlThreads.forTasks(execution.mode(), execution.poolSize(),
                engine.sampler().threadsStarted())) {
            try {
                while (!cancelled.getAsBoolean()) {
                    FetchLimit.Slot slot = engine.limit().acquire();
                    Lease lease;
                    try {
                        lease = frontier.next(slot);
                    } finally {
                        if (cancelled.getAsBoolean()) {
                            slot.close(); // a lease handed out now is closed below, unrun: nothing is lost
                        }
                    }
                    if (lease == null) {
                        slot.close();
                        break;
                    }
                    try {
                        executor.execute(() -> task.crawl(lease));
                    } catch (RejectedExecutionException e) {
                        lease.close(); // never run: its permits are freed, its URL is queued again
                        if (Thread.interrupted() || cancelled.getAsBoolean()) {
                            throw new InterruptedException("cancelled while waiting for a free pool thread");
                        }
                        throw new IllegalStateException("the executor refused a task: " + e.getMessage(), e);
                    }
                }
            } catch (InterruptedException e) {
                executor.shutdownNow(); // cancelled: interrupt fetches in progress; their URLs are not stored
                throw e;
            }
            if (cancelled.getAsBoolean() || stopNow.getAsBoolean()) {
                executor.shutdownNow();
            }
            // On suspend, close() lets fetches in progress finish and be stored: a graceful stop.
        }
    }

    /**
     * Marks the dispatcher interruptible ({@code thread}) or not ({@code null}). Leaving, it clears any interrupt
     * that came in: a cancel after this sees no dispatcher, so no interrupt reaches the job's store writes.
     */
    private void interruptible(@Nullable Thread thread) {
        interruptGuard.lock();
        try {
            interruptible = thread;
            if (thread == null) {
                Thread.interrupted();
            }
        } finally {
            interruptGuard.unlock();
        }
    }

    /** Wakes the dispatcher if it is dispatching (it may be waiting for a fetch slot); otherwise nothing. */
    void interrupt() {
        interruptGuard.lock();
        try {
            if (interruptible != null) {
                interruptible.interrupt();
            }
        } finally {
            interruptGuard.unlock();
        }
    }
}
