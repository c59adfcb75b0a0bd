package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchLimitTest {

    @ParameterizedTest(name = "limit {0}, {1} in flight, lag {2} ms, fetch time x{3} its best -> {4}")
    @CsvSource({
        // room, servers set the pace, the limit in use: double, up to the most
        "1024, 1000, 1.0, 1.0, 2048",
        "8000, 8000, 0.5, 1.2, 10000",
        // room but the limit not in use: hold (a small crawl must not talk the limit up)
        "1024, 100, 1.0, 1.0, 1024",
        // carriers late and fetches slower than they were: 15% less, down to the least
        "1000, 1000, 40.0, 2.0, 850",
        "300, 300, 80.0, 3.0, 256",
        // carriers late but fetches as fast as ever (a second-long page, a GC): hold
        "1000, 1000, 40.0, 1.4, 1000",
        // fetches slower but carriers on time (the servers slowed down, not us): hold
        "1000, 1000, 2.0, 2.0, 1000",
        // in between: hold
        "1000, 1000, 8.0, 1.3, 1000",
    })
    void theLimitFollowsLatenessAndInflationTogether(int limit, int inFlight, double lag, double inflation, int next) {
        assertThat(FetchLimit.step(limit, inFlight, lag, inflation, 256, 10_000)).isEqualTo(next);
    }

    @Test
    void aFixedLimitHandsOutItsPermitsAndTakesThemBackOnce() throws Exception {
        try (FetchLimit limit = new FetchLimit(1, 2, false)) {
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
