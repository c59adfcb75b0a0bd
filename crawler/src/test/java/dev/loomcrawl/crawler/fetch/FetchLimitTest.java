package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchLimitTest {

    @ParameterizedTest(name = "limit {0}, {1} in flight, lag {2} ms, fetch time x{3} its best, ramp-up {5}, store behind {6} -> {4}")
    @CsvSource({
        // room, servers set the pace, the limit in use: double while ramping up, up to the most
        "1024, 1000, 1.0, 1.0, 2048, true, false",
        "8000, 8000, 0.5, 1.1, 10000, true, false",
        // after the limit first fell: a 32nd more (signals trail the limit; doubling overshot them)
        "1024, 1000, 1.0, 1.0, 1056, false, false",
        "9990, 9990, 0.5, 1.1, 10000, false, false",
        "256, 256, 0.5, 1.1, 264, false, false",
        // room but the limit not in use: hold (a small crawl must not talk the limit up)
        "1024, 100, 1.0, 1.0, 1024, true, false",
        // carriers late and fetches slower than they were: 15% less, down to the least
        "1000, 1000, 40.0, 2.0, 850, true, false",
        "300, 300, 80.0, 3.0, 256, true, false",
        // carriers late but fetches as fast as ever (a second-long page, a GC): hold
        "1000, 1000, 40.0, 1.4, 1000, true, false",
        // fetches slower but carriers on time (the servers slowed down, not us): hold
        "1000, 1000, 2.0, 2.0, 1000, true, false",
        // in between: hold
        "1000, 1000, 8.0, 1.3, 1000, true, false",
        // the store behind: 15% less whatever the CPU says (more fetches would only wait to be stored), to the least
        "1024, 1000, 1.0, 1.0, 871, true, true",
        "1000, 1000, 8.0, 1.3, 850, false, true",
        "256, 256, 1.0, 1.0, 256, false, true",
    })
    void theLimitFollowsLatenessAndInflationTogetherAndTheStore(int limit, int inFlight, double lag, double inflation,
            int next, boolean rampUp, boolean storeBehind) {
        assertThat(FetchLimit.step(limit, inFlight, lag, FetchLimit.ROOM_MILLIS, inflation, storeBehind, 256, 10_000,
                rampUp)).isEqualTo(next);
    }

    /**
     * The limit in a closed loop: a process that carries 1,500 fetches at the servers' pace (more only queue:
     * fetch time grows as in-flight over 1,500, and carriers run late), whose signals trail the limit by six
     * periods (a fetch's time). After its ramp-up the limit must settle near what the CPU carries; doubling at
     * every calm period, as the limit once did, swung it between a fraction and several times that.
     */
    @Test
    void afterTheRampUpTheLimitSettlesNearWhatTheProcessCarries() {
        assertThat(swing(true)).as("doubling whenever calm").satisfies(range ->
                assertThat(range[0] < 700 || range[1] > 4_000).isTrue());
        int[] settled = swing(false);
        assertThat(settled[0]).as("least limit, last 10 s").isGreaterThanOrEqualTo(900);
        assertThat(settled[1]).as("largest limit, last 10 s").isLessThanOrEqualTo(2_500);
    }

    /** The least and largest limit over the last 200 of 400 periods of the loop above. */
    private static int[] swing(boolean alwaysRampUp) {
        int capacity = 1_500;
        int delay = 6;
        int[] history = new int[400];
        int limit = 1_024;
        boolean rampUp = true;
        int least = Integer.MAX_VALUE;
        int largest = 0;
        for (int t = 0; t < history.length; t++) {
            history[t] = limit;
            double load = (double) history[Math.max(0, t - delay)] / capacity;
            double inflation = Math.max(1, load);
            double lag = load > 1 ? 10 + 100 * (load - 1) : 1;
            int next = FetchLimit.step(limit, limit, lag, FetchLimit.ROOM_MILLIS, inflation, false, 256, 10_000,
                    alwaysRampUp || rampUp);
            rampUp &= next >= limit;
            limit = next;
            if (t >= 200) {
                least = Math.min(least, limit);
                largest = Math.max(largest, limit);
            }
        }
        return new int[] {least, largest};
    }

    /**
     * Lateness counts against the fetch it delays: 8 ms of it leaves room on pages of a second (the demo's second
     * round in a cold JVM, where the limit held at 1,024 with 1,600 pages waiting), not on pages of 300 ms.
     */
    @Test
    void roomScalesWithTheFetchTime() {
        assertThat(FetchLimit.room(Double.MAX_VALUE)).isEqualTo(FetchLimit.ROOM_MILLIS); // no fetch answered yet
        assertThat(FetchLimit.room(300)).isEqualTo(FetchLimit.ROOM_MILLIS);
        assertThat(FetchLimit.room(1_000)).isEqualTo(10.0);
        assertThat(FetchLimit.step(1_024, 1_024, 8.0, FetchLimit.room(1_000), 1.0, false, 256, 10_000, true)).isEqualTo(2_048);
        assertThat(FetchLimit.step(1_024, 1_024, 8.0, FetchLimit.room(300), 1.0, false, 256, 10_000, true)).isEqualTo(1_024);
    }

    /**
     * The fetch time the limit watches is each answered request's own, not how long a slot was held: a host's
     * first slot holds its robots.txt and its first page, and counted as one fetch of twice the latency it
     * read as inflation at every crawl's second round.
     */
    @Test
    void fetchTimeIsTheRequestsOwnNotTheSlots() throws Exception {
        try (FetchLimit limit = new FetchLimit(1, 2, false, () -> false)) {
            FetchLimit.Slot slot = limit.acquire();
            limit.answered(Duration.ofMillis(300).toNanos()); // robots.txt
            limit.answered(Duration.ofMillis(300).toNanos()); // the page, under the same slot
            slot.close();
            assertThat(limit.fetchMillis()).isEqualTo(300.0);
        }
    }

    /**
     * The fetch time is the plain mean of the answers until a hundred have come, then smoothed over about a hundred.
     * An average begun from the first answer would weigh it as a hundred: where servers' answers vary (200 to 400
     * ms), a lucky first one would stay the best fetch time, every later period would read as inflated past
     * {@link FetchLimit#CALM}, and the limit, once fallen at the crawl's first peak, would never grow again.
     */
    @Test
    void theFetchTimeIsNoLuckyFirstAnswer() throws Exception {
        try (FetchLimit limit = new FetchLimit(1, 2, false, () -> false)) {
            limit.answered(Duration.ofMillis(200).toNanos());
            for (int i = 0; i < 99; i++) {
                limit.answered(Duration.ofMillis(300).toNanos());
            }
            assertThat(limit.fetchMillis()).isCloseTo(299.0, within(1e-9));
            limit.answered(Duration.ofMillis(400).toNanos());
            assertThat(limit.fetchMillis()).isCloseTo(300.01, within(1e-9)); // a hundredth of the difference
        }
    }

    @Test
    void aFixedLimitHandsOutItsPermitsAndTakesThemBackOnce() throws Exception {
        try (FetchLimit limit = new FetchLimit(1, 2, false, () -> false)) {
            FetchLimit.Slot a = limit.acquire();
            FetchLimit.Slot b = limit.acquire();
            assertThat(limit.inFlight()).isEqualTo(2);
            a.close();
            a.close(); // twice is once
            assertThat(limit.inFlight()).isEqualTo(1);
            b.close();
            assertThat(limit.inFlight()).isZero();
        }
    }
}
