package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.KeyView;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * Answers that every host sends late at once (our CPU, our link, a machine behind them all) are no one server's
 * overload, and cut no host's limit; one server answering late among many healthy ones is still cut. Rounds of
 * requests through {@link HostGates}, answers interleaved across hosts a millisecond apart, on a clock of the
 * test's own.
 */
class SharedSlowdownTest {
    private static final long MS = 1_000_000L;
    private static final int LIMIT = 8;

    private long now = System.nanoTime();

    @Test
    void everyHostAnsweringLateTogetherCutsNoHost() {
        assertThat(allowedAfter(12, host -> true)).containsOnly(LIMIT);
    }

    @Test
    void aLoneHostAnsweringLateIsCutAsBefore() {
        // The control: with too few hosts to tell a crowd, the same answers are the host's own
        assertThat(allowedAfter(1, host -> true).get(0)).isLessThan(LIMIT);
    }

    @Test
    void oneServerSlowingAmongHealthyOnesIsCut() {
        List<Integer> allowed = allowedAfter(12, host -> host == 0);
        assertThat(allowed.get(0)).isLessThan(LIMIT);
        assertThat(allowed.subList(1, allowed.size())).containsOnly(LIMIT);
    }

    /**
     * What each of {@code count} hosts is allowed in flight after ten rounds at 100 ms, then the {@code slow} ones'
     * answers going from 100 ms to 300 ms over ten rounds, as a busy machine's grow late, and 20 rounds there; the
     * others' stay at 100 ms.
     */
    private List<Integer> allowedAfter(int count, IntPredicate slow) {
        HostGates gates = new HostGates(LIMIT, true);
        List<Target> hosts = hosts(count);
        rounds(gates, hosts, 10, host -> 100 * MS);
        for (int step = 1; step <= 10; step++) {
            long late = (100 + 20 * step) * MS;
            rounds(gates, hosts, 1, host -> slow.test(host) ? late : 100 * MS);
        }
        rounds(gates, hosts, 20, host -> (slow.test(host) ? 300 : 100) * MS);
        return hosts.stream().map(h -> gates.key(h.hostKey(), Map.of())).map(KeyView::allowed).toList();
    }

    private static List<Target> hosts(int n) {
        List<Target> hosts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            hosts.add(new Target("h" + i + ".test:80", "h" + i + ".test"));
        }
        return hosts;
    }

    /**
     * {@code count} rounds: each host sends all it is allowed, then the answers come back one host after another,
     * a millisecond apart, each after {@code latency} of its host's index.
     */
    private void rounds(HostGates gates, List<Target> hosts, int count, IntToLongFunction latency) {
        for (int round = 0; round < count; round++) {
            List<List<Permit>> sent = new ArrayList<>();
            for (Target host : hosts) {
                List<Permit> permits = new ArrayList<>();
                HostGates.Entry entry;
                while ((entry = gates.tryEnter(host, PolitenessKey.HOST, LIMIT, now, key -> { })).entered()) {
                    permits.add(entry.permit());
                }
                sent.add(permits);
            }
            for (int i = 0; i < LIMIT; i++) {
                for (int h = 0; h < hosts.size(); h++) {
                    if (i < sent.get(h).size()) {
                        now += MS;
                        gates.exit(sent.get(h).get(i), 0, latency.applyAsLong(h), false, now);
                    }
                }
            }
        }
    }
}
