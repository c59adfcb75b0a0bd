package dev.loomcrawl.crawler.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The header timeout and the whole-fetch deadline of every fetch in flight, kept by one platform thread
 * that looks at them every {@link #TICK}: a fetch times out up to one tick late. A fetch that overruns is
 * interrupted, which is how a blocking {@link java.net.http.HttpClient#send} is cancelled (the client
 * aborts the exchange and closes its connection); a body read is also cut by closing its stream.
 *
 * <p>A timer per fetch cost more than it kept: a timed wait of a virtual thread for the headers and a
 * {@code ScheduledThreadPoolExecutor} entry for the body are each added and cancelled once per fetch, and
 * every one of those changes wakes the timer's thread (the virtual-thread scheduler's delay queue signals
 * its thread for each). A cold 10,000-page crawl woke those two threads ~9,000 and ~1,800 times. Here a
 * fetch is an entry in a concurrent set; the thread wakes twenty times a second while fetches are in
 * flight, and sleeps when there are none.
 */
public final class Deadlines implements AutoCloseable {
    static final Duration TICK = Duration.ofMillis(50);

    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private volatile boolean idle;
    private volatile boolean closed;
    private final Thread keeper = Thread.ofPlatform().name("fetch-deadlines").daemon(true).unstarted(this::keep);

    /** Starts the one thread that keeps the deadlines, until {@link #close}. */
    public Deadlines() {
        keeper.start();
    }

    /**
     * Watches a request the calling thread is about to send: it is interrupted if the response's headers
     * are not in by {@code headersBy} ({@link System#nanoTime()}). The caller must {@link Watch#finish} the
     * watch on every path.
     */
    Watch watch(long headersBy) {
        Watch watch = new Watch(headersBy);
        watched.add(watch);
        if (idle) {
            idle = false;
            LockSupport.unpark(keeper);
        }
        return watch;
    }

    /** Stops the thread; fetches still watched are no longer cut. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(keeper);
    }

    private void keep() {
        while (!closed) {
            if (watched.isEmpty()) {
                idle = true;
                if (watched.isEmpty() && !closed) { // a watch added after the first look has unparked, or will
                    LockSupport.park();
                }
                idle = false;
                continue;
            }
            LockSupport.parkNanos(TICK.toNanos());
            long now = System.nanoTime();
            for (Watch watch : watched) {
                try {
                    watch.check(now);
                } catch (RuntimeException e) {
                    // A stream that fails to close must not end the keeper: every later fetch would wait unbounded.
                    watched.remove(watch);
                }
            }
        }
    }

    /**
     * One fetch: waiting for its headers, then reading its body, then finished. The lock makes a cut and
     * the fetch's own moves from one phase to the next exclusive, so an interrupt meant for one wait never
     * reaches the rest of the task, where it would look like a cancelled job.
     */
    final class Watch {
        private final Thread fetching = Thread.currentThread();
        private final long headersBy;
        private final ReentrantLock lock = new ReentrantLock();
        // Written under lock, read by the keeper without it first (most looks find nothing due).
        private volatile long doneBy;
        private volatile @Nullable InputStream body; // null while waiting for the headers; set after doneBy
        private volatile boolean finished;
        private boolean cut; // guarded by lock

        private Watch(long headersBy) {
            this.headersBy = headersBy;
        }

        /**
         * The request ended without a response: whether this watch cut it (then the fetch timed out, and the
         * interrupt is cleared), else the end was the request's own or an interrupt someone else's (a
         * cancelled job). The watch is finished.
         */
        boolean headersLate() {
            return end();
        }

        /**
         * The headers are in; the body must be read by {@code doneBy} ({@link System#nanoTime()}). A cut that
         * came between the headers and this call is taken back: the headers were in time.
         */
        void reading(InputStream body, long doneBy) {
            lock.lock();
            try {
                if (cut) {
                    cut = false;
                    Thread.interrupted();
                    watched.add(this); // the keeper may have let go of it after the cut
                }
                this.doneBy = doneBy;
                this.body = body;
            } finally {
                lock.unlock();
            }
        }

        private void check(long now) {
            InputStream stream = body;
            if (!finished && now - (stream == null ? headersBy : doneBy) < 0) {
                return;
            }
            lock.lock();
            try {
                if (finished || cut) {
                    watched.remove(this);
                    return;
                }
                if (body != stream) {
                    return; // the headers came meanwhile: the body's deadline is looked at next tick
                }
                cut = true;
                fetching.interrupt();
            } finally {
                lock.unlock();
            }
            if (stream != null) {
                try {
                    stream.close(); // closing alone does not wake a reader blocked in the JDK's response stream
                } catch (IOException e) {
                    // the reader sees the stream closed, which is the point
                }
            }
        }

        /** The fetch is over; true if the deadline cut its body (the fetching thread's interrupt is cleared then). */
        boolean finish() {
            return end() && body != null;
        }

        /** Finishes the watch (once; later calls only answer); whether it cut the fetch, its interrupt cleared. */
        private boolean end() {
            watched.remove(this);
            lock.lock();
            try {
                if (!finished) {
                    finished = true;
                    if (cut) {
                        Thread.interrupted();
                    }
                }
                return cut;
            } finally {
                lock.unlock();
            }
        }
    }
}
