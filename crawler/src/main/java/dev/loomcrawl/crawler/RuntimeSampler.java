package dev.loomcrawl.crawler;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one owner of process-wide figures: live platform threads, sampled so that each job gets the peak of
 * its own lifetime (the JVM's own peak counter is global: resetting it for one job would corrupt
 * another's), virtual threads started for crawling, and process CPU time.
 */
final class RuntimeSampler implements AutoCloseable {
    static final Duration EVERY = Duration.ofMillis(100);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final LongAdder threadsStarted = new LongAdder();
    private final Set<Peak> watching = ConcurrentHashMap.newKeySet();
    private final Thread sampler;
    private volatile boolean closed;

    RuntimeSampler() {
        this.sampler = Thread.ofVirtual().name("runtime-sampler").start(this::run);
    }

    /** The most live platform threads seen while it is open. */
    final class Peak implements AutoCloseable {
        private volatile int peak = livePlatformThreads();

        int value() {
            return Math.max(peak, livePlatformThreads());
        }

        private void see(int live) {
            if (live > peak) {
                peak = live;
            }
        }

        @Override
        public void close() {
            see(livePlatformThreads());
            watching.remove(this);
        }
    }

    Peak watchPeak() {
        Peak peak = new Peak();
        watching.add(peak);
        return peak;
    }

    /** Counts virtual threads started for crawling and one-off fetches; see {@link CrawlThreads#forTasks}. */
    LongAdder threadsStarted() {
        return threadsStarted;
    }

    long virtualThreadsStarted() {
        return threadsStarted.sum();
    }

    static int livePlatformThreads() {
        return THREADS.getThreadCount();
    }

    static int peakPlatformThreads() {
        return THREADS.getPeakThreadCount();
    }

    /** CPU time of this whole process so far, or -1 if the JVM cannot tell. */
    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private void run() {
        try {
            while (!closed) {
                int live = livePlatformThreads();
                for (Peak peak : watching) {
                    peak.see(live);
                }
                Thread.sleep(EVERY); // a periodic sample, not a wait for something to happen
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    @Override
    public void close() {
        closed = true;
        sampler.interrupt();
    }
}
