package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The one thread that writes crawl results: tasks hand it {@link Write}s and go on, it writes them in
 * batches, in the order they were handed over, and commits them together (group commit): after every batch,
 * or, given a commit interval, at most that often while writes keep coming, but at once when they stop (a
 * {@code IDLE_POLL} without any), when a batch's worth waits, or when someone {@link #flush}es.
 *
 * <p>That keeps JDBC off the hot path of thousands of tasks, and keeps the database's file channel away
 * from the interrupts that cancel a job (an interrupted {@code FileChannel} closes, and H2 with it). The
 * connection is guarded by a {@link ReentrantLock}, never {@code synchronized}: it is held across blocking
 * I/O. A writer that dies is reported to every caller instead of leaving one blocked on a full queue, and
 * {@link #close} waits a bounded time whatever state the writer is in.
 */
final class GroupWriter {
    /**
     * Writes in one batch, and the most one transaction holds, whatever the commit interval. H2 writes an open
     * transaction's changed pages to the file by itself once they pass its auto-commit buffer (about 19 MB of pages
     * in memory, and each write changes a leaf of the URL-hash index wherever its key falls), then writes them all
     * again, committed, at the commit. On 100,000 pages, a quarter second's writes (about 750) in one transaction
     * wrote 406 MB to the file, and at most 512 wrote 254 MB (at most 1,024: 395 MB; 128: 256 MB in more commits);
     * the crawl took 0.88-0.98x the CPU, by the hour (docs/performance.md).
     */
    private static final int BATCH = 512;
    private static final int QUEUE = 8_192;
    private static final Duration IDLE_POLL = Duration.ofMillis(50);

    /** What a task hands over. */
    sealed interface Write {
        /**
         * A URL's results (its page, and links skipped on sight) with the links it admitted, stored together,
         * and its change events (a continuous job's {@code new}).
         */
        record Result(List<Admitted> admitted, List<PageRecord> pages, List<Change> changes) implements Write {}

        /**
         * A revisit of a stored URL: its row rewritten with {@code page} (null: the content did not change, and the
         * row stays), its event (null: the visit told nothing), and what it admitted and recorded on sight, stored
         * together.
         */
        record Revisit(long jobId, String url, @Nullable PageRecord page, @Nullable Change change, List<Admitted> admitted,
                List<PageRecord> recorded) implements Write {}

        /** A URL tried {@code attempts} times so far, to be tried again: a resumed job counts on from there. */
        record Retry(long jobId, String url, int attempts) implements Write {}

        /** A shorter path to a page handed over earlier: its depth is lowered. */
        record Depth(long jobId, String url, int depth) implements Write {}

        /**
         * Handed over by {@link #close} only: wakes the writer from its wait for work, so that it sees the
         * store closing at once instead of when the wait times out. Never written, never counted.
         */
        record Wake() implements Write {}
    }

    private final Connection connection;
    private final ReentrantLock lock;
    private final Condition committedAdvanced;
    /**
     * Room for writes in the queue. A task waits for it parked, without a timeout: timed waits of thousands of
     * tasks on a full queue (each timeout walks the list of waiters to unlink itself) cost a crawl that outruns
     * its disk a tenth of its CPU. A writer that stops opens it for everyone, who then see why.
     */
    private final Semaphore room = new Semaphore(QUEUE);
    /** Writes, and wake-ups beyond them ({@link Write.Wake}, which take no room). */
    private final BlockingQueue<Write> queue = new ArrayBlockingQueue<>(QUEUE + 64);
    private final long commitNanos;
    private final BatchWrites statements;
    private final Thread thread;
    /**
     * Writes handed over, counted outside {@code lock}: the writer holds that lock through each batch and its
     * commit, and tasks queued on it only to count themselves (2,000 at once on a 10,000-page crawl), each
     * keeping its virtual thread's stack and its page alive meanwhile.
     */
    private final AtomicLong submitted = new AtomicLong();
    private long committed; // guarded by lock
    /** Writes in the open transaction, written but not committed. Guarded by lock. */
    private long pending;
    private long lastCommit = System.nanoTime(); // guarded by lock
    /** The count of writes some {@link #flush} waits to see committed: the writer commits at once for it. */
    private final AtomicLong flushWanted = new AtomicLong();
    private volatile @Nullable Throwable failure;
    private volatile boolean closing;

    /**
     * @param lock guards {@code connection}, shared with the store's other writes, which first
     *     {@link #commitPending commit} what this writer has written
     * @param commitEvery how long writes may wait for their commit while more keep coming (zero: none, each
     *     batch is committed)
     */
    GroupWriter(Connection connection, ReentrantLock lock, Dialect dialect, boolean hashKey, Duration commitEvery)
            throws SQLException {
        this.connection = connection;
        this.lock = lock;
        this.committedAdvanced = lock.newCondition();
        this.commitNanos = commitEvery.toNanos();
        this.statements = new BatchWrites(connection, dialect, hashKey);
        this.thread = Thread.ofPlatform().name("loomcrawl-store").daemon(true).start(this::run);
    }

    /**
     * Hands {@code write} to the writer. Blocks only while the writer is {@value #QUEUE} writes behind,
     * which slows the crawl to what the disk takes instead of growing memory.
     *
     * @throws StoreException if the writer has failed or the store is closed
     */
    void submit(Write write) throws InterruptedException {
        throwIfFailed();
        room.acquire(); // released when the writer takes a write, and for everyone when it stops
        if (!queue.offer(write)) { // no space though there was room: the writer has stopped
            throwIfFailed();
            throw new StoreException("the store is closed", null);
        }
        submitted.incrementAndGet();
    }

    /** Waits until everything submitted before this call is committed. */
    void flush() throws InterruptedException {
        long target = submitted.get();
        flushWanted.accumulateAndGet(target, Math::max);
        queue.offer(new Write.Wake()); // the writer commits for it now, not at its next interval (full: it is busy)
        lock.lock();
        try {
            while (committed < target) {
                throwIfFailed();
                committedAdvanced.await(IDLE_POLL.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
        throwIfFailed();
    }

    private void run() {
        List<Write> batch = new ArrayList<>(BATCH);
        try {
            while (true) {
                // Closing: what is queued is written, and no more is waited for.
                Write first = closing ? queue.poll() : queue.poll(IDLE_POLL.toMillis(), TimeUnit.MILLISECONDS);
                if (first == null) {
                    commitPending(); // no more writes coming: nothing is gained by waiting
                    if (closing) {
                        break;
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                batch.removeIf(Write.Wake.class::isInstance); // a wake-up: closing, or a flush waiting
                room.release(batch.size());
                if (!batch.isEmpty()) {
                    write(batch);
                    batch.clear();
                }
                commitIfDue();
            }
        } catch (InterruptedException e) {
            failure = new StoreException("the store was closed before its writes were done", e);
        } catch (SQLException | RuntimeException e) {
            failure = new StoreException("storage failed: " + e.getMessage(), e);
        } finally {
            room.release(Integer.MAX_VALUE - QUEUE); // no task waits on a writer that is gone
            lock.lock();
            try {
                committedAdvanced.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Commits what is pending if the interval has passed, a batch's worth waits for it, or a flush does (always,
     * without an interval).
     */
    private void commitIfDue() throws SQLException {
        lock.lock();
        try {
            if (commitNanos == 0 || System.nanoTime() - lastCommit >= commitNanos || pending >= BATCH
                    || flushWanted.get() > committed) {
                commitPending();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Commits what this writer has written and not committed yet. The store calls it, holding the lock,
     * before writing on the same connection itself: its commit or rollback must not take the writer's rows.
     */
    void commitPending() throws SQLException {
        lock.lock();
        try {
            if (pending > 0) {
                connection.commit();
                committed += pending;
                pending = 0;
                committedAdvanced.signalAll();
            }
            lastCommit = System.nanoTime();
        } finally {
            lock.unlock();
        }
    }

    private void write(List<Write> batch) throws SQLException {
        lock.lock();
        try {
            statements.write(batch);
            pending += batch.size();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes what is queued and stops, waiting at most {@code grace}; then stops anyway. Never blocks on a
     * full queue, whatever happened to the writer.
     */
    void close(Duration grace) {
        closing = true;
        // Wake the writer now rather than at the end of its wait for work (up to IDLE_POLL: 50 ms of every
        // cold crawl's exit, as the process waits for it). A full queue needs no wake-up: it is writing.
        queue.offer(new Write.Wake());
        try {
            thread.join(grace);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(Duration.ofSeconds(1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure == null) {
            failure = new StoreException("the store is closed", null);
        }
    }

    /**
     * Whether the writer is behind: its queue over half full, results handed over faster than it writes them (a
     * stopped writer is not behind, it has failed).
     */
    boolean behind() {
        return failure == null && room.availablePermits() < QUEUE / 2;
    }

    /** Whether the writer has stopped on an error (or was closed). */
    boolean failed() {
        return failure != null;
    }

    private void throwIfFailed() {
        Throwable f = failure;
        if (f != null) {
            throw f instanceof StoreException s ? s : new StoreException(String.valueOf(f.getMessage()), f);
        }
    }
}
