package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The AIMD rule alone, driven answer by answer. */
class AdaptiveTest {
    private static final long BASE = TimeUnit.MILLISECONDS.toNanos(300);

    /**
     * A healthy key is at its limit after its first answer, though it never had all it was allowed in flight (a
     * crawl's first answer from a host is its seed's).
     */
    @Test
    void startsLowAndReachesTheLimitWithItsFirstAnswer() {
        Adaptive a = new Adaptive(8);
        assertThat(a.allowed(8)).isEqualTo(Adaptive.START);
        a.answered(BASE, false, false, 8, false);
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(new Adaptive(16)).satisfies(b -> {
            b.answered(BASE, false, false, 16, false);
            b.answered(BASE, false, false, 16, false);
            assertThat(b.allowed(16)).isEqualTo(16);
        });
        for (int i = 0; i < 100; i++) {
            answeredInFull(a, BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(a.gapNanos()).isZero();
    }

    /** A late answer now and then in slow start (our own CPU, a slow page) ends nothing; two in a row do. */
    @Test
    void slowStartEndsOnTwoLateAnswersInARowAtHalfTheLimit() {
        Adaptive a = new Adaptive(16);
        answeredInFull(a, BASE, false, 16);
        answeredInFull(a, 2 * BASE, false, 16);
        answeredInFull(a, BASE, false, 16);
        assertThat(a.allowed(16)).isEqualTo(16); // 4, 8, (late: no growth, no end), 16
        answeredInFull(a, 2 * BASE, false, 16);
        answeredInFull(a, 2 * BASE, false, 16);
        assertThat(a.allowed(16)).isEqualTo(8);
        for (int i = 0; i < 16; i++) {
            answeredInFull(a, 2 * BASE, false, 16); // the answers to requests sent at 16: acted on already
        }
        assertThat(a.allowed(16)).isEqualTo(8);
        for (int i = 0; i < 8; i++) {
            answeredInFull(a, 2 * BASE, false, 16); // 8 is slower than the unloaded latency slow start measured
        }
        assertThat(a.allowed(16)).isEqualTo(6);
    }

    /** While our own carriers run late, a late answer may be our doing and says nothing; a healthy one still counts. */
    @Test
    void ourOwnLatenessHidesOnlyWhatItCouldHaveCaused() {
        Adaptive a = new Adaptive(16);
        a.answered(BASE, true, false, 16, false);
        assertThat(a.allowed(16)).isEqualTo(8);
        a.answered(3 * BASE, true, false, 16, true);
        a.answered(3 * BASE, true, false, 16, true);
        assertThat(a.allowed(16)).isEqualTo(8);
        a.answered(3 * BASE, false, false, 16, true);
        a.answered(3 * BASE, false, false, 16, true);
        assertThat(a.allowed(16)).isEqualTo(4);
    }

    @Test
    void aLatencyWellAboveTheBaselineCutsTheLimit() {
        Adaptive a = grown(8);
        for (int i = 0; i < 3; i++) {
            answeredInFull(a, 2 * BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(6); // x0.75, once: the rest of that round came back from the same overload
        assertThat(a.gapNanos()).isZero(); // slowness opens no gap while more than one may be in flight
        assertThat(a.baselineMillis()).isBetween(299.0, 320.0); // only its first answer, not yet seen as slow, moved the baseline
    }

    /** Sparse errors (5% of answers, some in pairs, as a flaky backend gives them) cut nothing. */
    @Test
    void sparseErrorsCutNothing() {
        Adaptive a = grown(8);
        for (int i = 0; i < 2_000; i++) {
            boolean error = i % 20 == 0 || i % 100 == 1; // every 20th, and now and then the next one too
            answeredInFull(a, BASE, error, 8);
            assertThat(a.allowed(8)).as("answer %d", i).isEqualTo(8);
        }
        assertThat(a.gapNanos()).isZero();
    }

    /** A sustained share of errors cuts the limit and opens a gap; once answers are healthy it grows straight back. */
    @Test
    void aRunOfErrorsCutsAndHealthyAnswersRestoreItQuickly() {
        Adaptive a = grown(8);
        int answers = 0;
        while (a.allowed(8) == 8 && answers < 20) {
            answeredInFull(a, BASE, true, 8);
            answers++;
        }
        assertThat(answers).isBetween(3, 10); // a server answering only errors is acted on within a few answers
        assertThat(a.allowed(8)).isEqualTo(6);
        assertThat(a.gapNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(Adaptive.MIN_GAP_MILLIS));
        int healthy = 0;
        while (a.allowed(8) < 8 && healthy < 100) {
            answeredInFull(a, BASE, false, 8);
            healthy++;
        }
        assertThat(healthy).isLessThanOrEqualTo(12); // those of the cut, then one more allowed per healthy answer
        assertThat(a.allowed(8)).isEqualTo(8);
    }

    /** At one request at a time, slowness opens a gap, but never more than a few normal answers long. */
    @Test
    void slownessAtOneInFlightOpensABoundedGap() {
        Adaptive a = new Adaptive(1);
        for (int i = 0; i < 50; i++) {
            answeredInFull(a, BASE, false, 1);
        }
        long most = 0;
        for (int i = 0; i < 200; i++) {
            answeredInFull(a, 3 * BASE, false, 1);
            most = Math.max(most, a.gapNanos());
        }
        assertThat(most).isPositive().isLessThanOrEqualTo((long) (Adaptive.SLOW_GAP_BASELINES * 3 * BASE)); // its baseline is at most its answers
        assertThat(a.gapNanos()).isZero(); // and once the slower server is its new normal, none
    }

    /**
     * A server that slows at 4 in flight: the limit settles at 3, and 4 is tried again ever more rarely. (A crawl's
     * first answer from a host is its seed's, alone in flight.)
     */
    @Test
    void aKeyThatCannotTakeMoreIsProbedRarely() {
        Adaptive a = new Adaptive(8);
        a.answered(BASE, false, false, 8, false);
        int slow = 0;
        int answers = 2_000;
        for (int i = 1; i < answers; i++) {
            // The seed's links all sent at once, three answered at the base first; then each request sent as one
            // comes back, into a server with as many in flight as the key allows.
            boolean overloaded = i <= 8 ? i > 3 : a.allowed(8) > 3;
            slow += overloaded ? 1 : 0;
            answeredInFull(a, overloaded ? 2 * BASE : BASE, false, 8);
        }
        assertThat(a.allowed(8)).isLessThanOrEqualTo(4);
        assertThat(slow).isLessThan(answers / 20); // under 5%: the p95 stays at the base
    }

    /** Answers anywhere from 5 to 200 ms, as a busy real server gives them: its own noise is no overload. */
    @Test
    void aServerWhoseAnswersVaryWidelyIsNotCutByItsNoise() {
        Adaptive a = new Adaptive(8);
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 5_000; i++) {
            answeredInFull(a, TimeUnit.MILLISECONDS.toNanos(5 + random.nextInt(196)), false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(a.gapNanos()).isZero();
    }

    /** A server twice as slow for good, whatever the load: learnt as its new normal, and the limit comes back. */
    @Test
    void aServerThatBecameSlowerForGoodIsLearnt() {
        Adaptive a = grown(8);
        for (int i = 0; i < 1_000; i++) {
            answeredInFull(a, 2 * BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(a.baselineMillis()).isGreaterThan(550);
    }

    @Test
    void aLoweredLimitBindsAtOnce() {
        Adaptive a = grown(8);
        assertThat(a.allowed(2)).isEqualTo(2);
    }

    /** One answer to a request sent while the key used all it was allowed, our own carriers on time. */
    private static void answeredInFull(Adaptive a, long nanos, boolean error, int limit) {
        a.answered(nanos, false, error, limit, true);
    }

    private static Adaptive grown(int limit) {
        Adaptive a = new Adaptive(limit);
        for (int i = 0; i < 100; i++) {
            answeredInFull(a, BASE, false, limit);
        }
        return a;
    }
}
