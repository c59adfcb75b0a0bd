package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The pool mode's executor, on real platform threads. */
class CrawlThreadsTest {

    /**
     * A pool's threads outlive its last task for a moment (their exit from the worker loop and the JVM's
     * thread list). Here that moment is held open by a latch: {@code close()} must wait for it, so that the next
     * job does not count the last job's threads as its own.
     */
    @Test
    void aClosedPoolHasNoThreadLeft() throws Exception {
        CountDownLatch exit = new CountDownLatch(1);
        List<Thread> made = new CopyOnWriteArrayList<>();
        ThreadFactory lingering = task -> {
            Thread thread = Thread.ofPlatform().daemon(true).unstarted(() -> {
                task.run(); // the worker loop: returns once the pool is shut down and has no task for it
                boolean interrupted = false;
                while (true) { // shutting down interrupts idle workers: the interrupt may still be pending here
                    try {
                        exit.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            });
            made.add(thread);
            return thread;
        };
        AtomicInteger ran = new AtomicInteger();
        ExecutorService pool = CrawlThreads.handOff(4, lingering);
        for (int i = 0; i < 40; i++) {
            pool.execute(ran::incrementAndGet);
        }
        Thread closer = Thread.ofPlatform().start(pool::close);
        await().atMost(Duration.ofSeconds(10)).until(pool::isTerminated); // every task done, every worker out
        assertThat(ran).hasValue(40);
        assertThat(made).hasSize(4).allMatch(Thread::isAlive);
        await().atMost(Duration.ofSeconds(10)).until(() -> closer.getState() == Thread.State.WAITING);
        assertThat(closer.isAlive()).as("close() returned while the pool's threads were alive").isTrue();
        exit.countDown();
        closer.join(Duration.ofSeconds(10));
        assertThat(closer.isAlive()).isFalse();
        assertThat(made).noneMatch(Thread::isAlive);
    }
}
