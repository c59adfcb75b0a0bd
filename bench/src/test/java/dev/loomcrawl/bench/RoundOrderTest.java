package dev.loomcrawl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundOrderTest {

    /** Over every two rounds each turn has the same mean place, so a steady drift of the machine favours none. */
    @Test
    void everyOtherRoundRunsItsTurnsBackwards() {
        List<String> turns = List.of("on", "off", "rival");
        List<String> taken = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            taken.addAll(RoundOrder.of(turns, round));
        }
        assertThat(taken).containsExactly("on", "off", "rival", "rival", "off", "on",
                "on", "off", "rival", "rival", "off", "on");
        for (String turn : turns) {
            double mean = (taken.indexOf(turn) + taken.subList(3, 6).indexOf(turn) + 3) / 2.0;
            assertThat(mean).isEqualTo(2.5);
        }
    }
}
