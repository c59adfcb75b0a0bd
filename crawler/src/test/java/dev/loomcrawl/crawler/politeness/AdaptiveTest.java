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
        assertThat(a.heldBecause()).startsWith("starting"); // as a job's progress says it
        a.answered(new Reply(BASE, false, false, 0), 8, false);
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(new Adaptive(16)).satisfies(b -> {
            b.answered(new Reply(BASE, false, false, 0), 16, false);
            b.answered(new Reply(BASE, false, false, 0), 16, false);
            assertThat(b.allowed(16)).isEqualTo(16);
        });
        for (int i = 0; i < 100; i++) {
            answeredInFull(a, BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
        assertThat(a.gapNanos()).isZero();
    }

    /**
     * A server answering in about a millisecond, its answers varying by a few to fifteen (our own process's
     * hiccups at that scale), keeps its limit from its first answer on; the same server slowed by 60 ms is cut.
     */
    @Test
    void aFastServersFewMillisecondsAreNoOverload() {
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        java.util.Random random = new java.util.Random(7);
        Adaptive a = new Adaptive(8);
        int least = 8;
        for (int i = 0; i < 2_000; i++) {
            long jitter = i % 7 == 0 ? random.nextLong(15 * ms) : random.nextLong(3 * ms);
            a.answered(new Reply(ms + jitter, false, false, 1 + i % 8), 8, i > 0);
            least = i > 0 ? Math.min(least, a.allowed(8)) : least;
        }
        assertThat(least).as("the least allowed after the first answer").isEqualTo(8);
        for (int i = 0; i < 100; i++) {
            answeredInFull(a, 60 * ms, false, 8);
        }
        assertThat(a.allowed(8)).isLessThan(8);
        assertThat(a.heldBecause()).isEqualTo("its answers slowed");
    }

    /**
     * Slow start judges an answer late against every answer so far that was not, not only against the healthy ones:
     * else a first answer from the fast end of a noisy server's is a mean that the answers after it, above 1.3× of it,
     * never move, and two of the server's usual answers end the start (a host traced on `deep` with lognormal
     * answers: 162, 222, 231, then 266 and 271 ms, cut to 4 and held at 3 for the rest of the crawl).
     */
    @Test
    void slowStartJudgesLatenessAgainstEveryAnswerInTime() {
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        Adaptive a = new Adaptive(8);
        int load = 1;
        for (long latency : new long[] {162, 222, 231, 266, 271}) {
            a.answered(new Reply(latency * ms, false, false, load++), 8, true);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
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

    /**
     * Slow start counts a late answer towards its end only past the most load it has answered in time: a server
     * whose answers vary by themselves is late now and then at any load, an overloaded one only past what it can
     * take.
     */
    @Test
    void aLateAnswerAtALoadAnsweredInTimeIsTheServersSpread() {
        Adaptive a = new Adaptive(8);
        a.answered(new Reply(BASE, false, false, 1), 8, false); // the seed's: 8 allowed now
        a.answered(new Reply(BASE, false, false, 5), 8, false);
        a.answered(new Reply(BASE, false, false, 6), 8, false);
        a.answered(new Reply(2 * BASE, false, false, 3), 8, false);
        a.answered(new Reply(2 * BASE, false, false, 5), 8, false);
        assertThat(a.allowed(8)).isEqualTo(8); // late twice in a row, but at loads answered in time
        a.answered(new Reply(2 * BASE, false, false, 7), 8, false);
        a.answered(new Reply(2 * BASE, false, false, 8), 8, false);
        assertThat(a.allowed(8)).isEqualTo(4); // late twice past them: slow start ends at half
    }

    /**
     * Slow start ends after a round at its limit whatever that round's answers. Its late pair must come past the
     * loads it answered in time, and a request that reached the server before one sent earlier (a new connection)
     * can come back in time at the key's whole limit: every late answer after it then passes for the server's
     * spread, and no other rule acts while slow start lasts.
     */
    @Test
    void slowStartEndsAfterARoundAtItsLimitWhateverItsAnswers() {
        Adaptive a = new Adaptive(8);
        answeredAt(a, BASE, 1); // the seed's: 8 allowed now
        answeredAt(a, BASE, 8); // in time at 8 awaiting, by chance
        for (int i = 0; i < 9; i++) {
            answeredAt(a, 2 * BASE, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(6);
    }

    /**
     * A late pair that ends slow start may be a stall every host saw at once (a collector's pause, the JIT at a
     * crawl's start): once the answers are healthy again, the limit is back within about a round, one more
     * allowed per healthy answer to one below where it was, then the usual round for the last step.
     */
    @Test
    void afterALatePairInSlowStartHealthyAnswersBringTheLimitBack() {
        Adaptive a = new Adaptive(8);
        answeredInFull(a, BASE, false, 8);
        answeredInFull(a, 2 * BASE, false, 8);
        answeredInFull(a, 2 * BASE, false, 8);
        assertThat(a.allowed(8)).isEqualTo(4);
        int answers = 0;
        while (a.allowed(8) < 7 && answers < 100) {
            answeredInFull(a, BASE, false, 8);
            answers++;
        }
        assertThat(answers).isEqualTo(8 + 3); // the 8 sent before the cut, learnt from; then 5, 6, 7
        while (a.allowed(8) < 8 && answers < 100) {
            answeredInFull(a, BASE, false, 8);
            answers++;
        }
        assertThat(answers).isLessThanOrEqualTo(8 + 3 + 7); // a round at 7 without overload
        assertThat(a.gapNanos()).isZero();
    }

    /**
     * A late pair past loads the server answered in time says how much it takes: the start ends at that load if it is
     * under half, and healthy answers (a request that reached the server as another left) bring nothing back above it;
     * the level rule's rounds take it on from there. With only the seed's answer in time, the pair may as well be a
     * stall: half, and back by answers.
     */
    @Test
    void aLatePairPastLoadsAnsweredInTimeCutsToThemAndClimbsBackNoHigher() {
        Adaptive a = new Adaptive(8);
        answeredAt(a, BASE, 1, 2, 3); // the seed's first: 8 allowed now
        answeredAt(a, 2 * BASE, 4, 5);
        assertThat(a.allowed(8)).isEqualTo(3);
        for (int i = 0; i < 8 + Adaptive.SAMPLES - 1; i++) {
            answeredAt(a, BASE, 3); // the 8 sent before the cut, then healthy ones
        }
        assertThat(a.allowed(8)).isEqualTo(3);

        Adaptive stalled = new Adaptive(8);
        answeredAt(stalled, BASE, 1);
        answeredAt(stalled, 2 * BASE, 2, 3);
        assertThat(stalled.allowed(8)).isEqualTo(4);
        for (int i = 0; i < 8 + 3; i++) {
            answeredAt(stalled, BASE, 4);
        }
        assertThat(stalled.allowed(8)).isEqualTo(7);
    }

    /**
     * A server that answers late past a level it cannot take: its late answers are no healthy ones, though the
     * baseline took the first of them in (only the seed's answer, alone, was on time).
     */
    @Test
    void lateAnswersBringNothingBackAfterALatePair() {
        Adaptive a = new Adaptive(8);
        a.answered(new Reply(BASE, false, false, 0), 8, false);
        answeredInFull(a, 2 * BASE, false, 8);
        answeredInFull(a, 2 * BASE, false, 8);
        assertThat(a.allowed(8)).isEqualTo(4);
        for (int i = 0; i < 8 + 3; i++) {
            answeredInFull(a, 2 * BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(4);
    }

    /** While our own carriers run late, a late answer may be our doing and says nothing; a healthy one still counts. */
    @Test
    void ourOwnLatenessHidesOnlyWhatItCouldHaveCaused() {
        Adaptive a = new Adaptive(16);
        a.answered(new Reply(BASE, true, false, 0), 16, false);
        assertThat(a.allowed(16)).isEqualTo(8);
        a.answered(new Reply(3 * BASE, true, false, 0), 16, true);
        a.answered(new Reply(3 * BASE, true, false, 0), 16, true);
        assertThat(a.allowed(16)).isEqualTo(8);
        a.answered(new Reply(3 * BASE, false, false, 0), 16, true);
        a.answered(new Reply(3 * BASE, false, false, 0), 16, true);
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
        assertThat(a.heldBecause()).isEqualTo("its server answered 5xx or 429");
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
        a.answered(new Reply(BASE, false, false, 0), 8, false);
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

    /**
     * A probe of a level that overloaded the server counts only answers to requests sent with that level in flight.
     * A probe's first requests go out as others come back, so the server has fewer than the level in hand when they
     * reach it and answers them in time: judged on those, a probe of 4 into a server that takes 3 passed, the level
     * was forgotten and the limit climbed to 5, where it was cut again (a tenth of a real crawl's answers doubled).
     */
    @Test
    void aProbeIsJudgedOnRequestsSentWithTheProbedLevelInFlight() {
        Adaptive a = new Adaptive(8);
        a.answered(new Reply(BASE, false, false, 0), 8, false);
        for (int i = 1; i < 150; i++) { // a server that slows past 3, as in the test above
            answeredInFull(a, (i <= 8 ? i > 3 : a.allowed(8) > 3) ? 2 * BASE : BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(3);
        int answers = 0;
        while (a.allowed(8) == 3 && answers++ < 1_000) {
            a.answered(new Reply(BASE, false, false, 3), 8, true);
        }
        assertThat(a.allowed(8)).as("the probe of 4").isEqualTo(4);
        for (int i = 0; i < 40 && a.allowed(8) == 4; i++) {
            boolean fourth = i % 4 == 3; // sent with 4 in flight: the server has 4 in hand
            a.answered(new Reply(fourth ? 2 * BASE : BASE, false, false, fourth ? 4 : 1 + i % 3), 8, true);
        }
        assertThat(a.allowed(8)).isEqualTo(3);
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

    /** One answer far above the rest (a heavy page, a server's hiccup) is no overload, however late. */
    @Test
    void oneVeryLateAnswerCutsNothing() {
        Adaptive a = grown(8);
        answeredInFull(a, 20 * BASE, false, 8);
        for (int i = 0; i < 50; i++) {
            answeredInFull(a, BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(8);
    }

    /**
     * A level whose answers came a third slower than unloaded is cut; if the level below then answers about as
     * slowly (yet not clearly slower than unloaded), the cut bought nothing: the server's own spread, or an unloaded
     * latency drawn too low. The limit is back at once, with no ceiling.
     */
    @Test
    void aCutAfterWhichTheLevelBelowIsNoFasterIsUndone() {
        Adaptive a = cutAtEight();
        for (int i = 0; i < 8 + 6; i++) {
            answeredInFull(a, BASE * 38 / 30, false, 8); // the 8 sent before the cut, then a round at 6
        }
        assertThat(a.allowed(8)).isEqualTo(8);
    }

    /** The same cut, after which the level below answers at the base again: an overload, and the cut holds. */
    @Test
    void aCutAfterWhichTheLevelBelowIsFasterHolds() {
        Adaptive a = cutAtEight();
        for (int i = 0; i < 8 + 30; i++) {
            answeredInFull(a, BASE, false, 8);
        }
        assertThat(a.allowed(8)).isEqualTo(7); // one below the level that overloaded, which waits its probe
    }

    /**
     * A key at 8 whose answers come 4/3 of the base (under the recent rule's threshold): cut to 6 once a block of
     * its level has seen them (its blocks grow to {@value Levels#LONGEST_BLOCK} answers while it is healthy).
     */
    private static Adaptive cutAtEight() {
        Adaptive a = grown(8);
        int answers = 0;
        while (a.allowed(8) == 8 && answers < 3 * Levels.LONGEST_BLOCK) {
            answeredInFull(a, BASE * 4 / 3, false, 8);
            answers++;
        }
        assertThat(a.allowed(8)).isEqualTo(6);
        return a;
    }

    /** One answer to a request sent while the key used all it was allowed, our own carriers on time. */
    private static void answeredInFull(Adaptive a, long nanos, boolean error, int limit) {
        a.answered(new Reply(nanos, false, error, 0), limit, true);
    }

    /**
     * One answer in {@code nanos} to each of requests that started with {@code loads} of the key's requests awaiting
     * their answers; past one, the key had all it was allowed in flight (a seed's request is alone).
     */
    private static void answeredAt(Adaptive a, long nanos, int... loads) {
        for (int load : loads) {
            a.answered(new Reply(nanos, false, false, load), 8, load > 1);
        }
    }

    private static Adaptive grown(int limit) {
        Adaptive a = new Adaptive(limit);
        for (int i = 0; i < 100; i++) {
            answeredInFull(a, BASE, false, limit);
        }
        return a;
    }
}
