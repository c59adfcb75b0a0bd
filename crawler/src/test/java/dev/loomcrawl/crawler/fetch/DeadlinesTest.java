package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The keeper of fetch deadlines, on real threads: it interrupts a wait for headers that overruns, cuts a body
 * read that overruns, and leaves no interrupt behind for the rest of the task.
 */
class DeadlinesTest {
    private final Deadlines deadlines = new Deadlines();

    @AfterEach
    void close() {
        deadlines.close();
    }

    private static long in(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    @Test
    void aLateHeaderWaitIsInterruptedAndTheInterruptIsNotLeftBehind() {
        long start = System.nanoTime();
        Deadlines.Watch watch = deadlines.watch(in(Duration.ofMillis(100)));
        assertThatThrownBy(() -> new CountDownLatch(1).await()).isInstanceOf(InterruptedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(100),
                Duration.ofMillis(100).plus(Deadlines.TICK).plusSeconds(2)); // a tick late at most, on a quiet machine
        assertThat(watch.headersLate()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(watch.finish()).isFalse(); // the body was never cut
    }

    @Test
    void anInterruptOfSomeoneElseIsNotTakenForATimeout() throws Exception {
        Deadlines.Watch watch = deadlines.watch(in(Duration.ofMinutes(1)));
        Thread.currentThread().interrupt(); // a cancelled job
        assertThatThrownBy(() -> new CountDownLatch(1).await()).isInstanceOf(InterruptedException.class);
        assertThat(watch.headersLate()).isFalse();
    }

    @Test
    void aSlowBodyIsCutAtItsDeadlineAndTheInterruptCleared() throws Exception {
        try (PipedOutputStream server = new PipedOutputStream(); InputStream body = new PipedInputStream(server)) {
            Deadlines.Watch watch = deadlines.watch(in(Duration.ofMillis(20)));
            watch.reading(body, in(Duration.ofMillis(150)));
            server.write(1);
            assertThat(body.read()).isEqualTo(1);
            assertThatThrownBy(body::read).isInstanceOf(IOException.class); // blocked until the cut
            assertThat(watch.finish()).isTrue();
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void aFetchDoneInTimeIsLeftAlone() throws Exception {
        Deadlines.Watch watch = deadlines.watch(in(Duration.ofMillis(30)));
        watch.reading(InputStream.nullInputStream(), in(Duration.ofMillis(60)));
        assertThat(watch.finish()).isFalse();
        // Past both deadlines and several ticks: no interrupt arrives.
        assertThat(new CountDownLatch(1).await(60 + 4 * Deadlines.TICK.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aCutThatCameAsTheHeadersArrivedIsTakenBack() throws Exception {
        Deadlines.Watch watch = deadlines.watch(in(Duration.ofMillis(10)));
        // The headers "arrive" after the deadline, before the keeper's cut is noticed: wait for the cut.
        assertThatThrownBy(() -> new CountDownLatch(1).await()).isInstanceOf(InterruptedException.class);
        Thread.currentThread().interrupt(); // as if the cut had landed after send() returned
        watch.reading(InputStream.nullInputStream(), in(Duration.ofMinutes(1)));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(watch.finish()).isFalse();
    }
}
