package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * A request's load ({@link Reply#load}) is its key's requests awaiting their answers when it starts: what the
 * server has in hand, not the permits in use, which also count answers the crawler has yet to read.
 */
class RequestLoadTest {
    private static final Target HOST = new Target("a.test:80", "a.test");

    @Test
    void aRequestsLoadCountsOnlyRequestsWhoseAnswerHasNotBegun() {
        HostGates gates = new HostGates(8, true);
        Permit first = enter(gates);
        Permit second = enter(gates);
        assertThat(first.load(0)).isEqualTo(1);
        assertThat(second.load(0)).isEqualTo(2);
        gates.answering(first);
        gates.answering(first); // counted off once
        Permit third = enter(gates);
        assertThat(third.load(0)).isEqualTo(2); // second and third: the first's answer is being read
        gates.exit(first, 0, 300_000_000L, false);
        gates.exit(second, 0, 300_000_000L, false); // its answer never began (a failure): counted off now
        Permit fourth = enter(gates);
        assertThat(fourth.load(0)).isEqualTo(2); // third and fourth
        gates.giveBack(fourth); // never sent
        assertThat(enter(gates).load(0)).isEqualTo(2); // third and this one
    }

    private static Permit enter(HostGates gates) {
        HostGates.Entry entry = gates.tryEnter(HOST, PolitenessKey.HOST, 8, System.nanoTime(), key -> { });
        return Objects.requireNonNull(entry.permit(), "a gate of 8 with a few in flight has a permit free");
    }
}
