package dev.loomcrawl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.mocksites.FarmCounters;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import org.junit.jupiter.api.Test;

class FetchFloorTest {

    /**
     * Every page of every host once, robots.txt first, never more than the per-host limit at a time, and the limit
     * used: the floor makes the crawl's requests, as politely, with nothing else.
     */
    @Test
    void fetchesEveryPageOnceAtMostPerHostAtATime() throws Exception {
        int hosts = 6;
        int pages = 25;
        int perHost = 3;
        try (MockSites farm = MockSites.start(Scenario.DEEP.config().withSize(hosts, pages)
                .withLatency(LatencyModel.fixed(30)).withPort(0))) {
            FetchFloor.Tally tally = FetchFloor.fetchAll(farm.seedUrls(), pages, perHost);
            FarmCounters.Snapshot seen = farm.counters();

            assertThat(tally).isEqualTo(new FetchFloor.Tally(hosts * pages, hosts, 0));
            assertThat(seen.byKind()).containsEntry("page", (long) hosts * pages).containsEntry("robots", (long) hosts);
            assertThat(seen.duplicateFetches()).isZero();
            assertThat(seen.robotsViolations()).isZero();
            // 24 pages after the seed, 30 ms each: without the host's semaphore all 24 would be in flight at once.
            assertThat(seen.maxInFlightPerHost()).isEqualTo(perHost);
        }
    }
}
