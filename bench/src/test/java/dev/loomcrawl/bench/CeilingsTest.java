package dev.loomcrawl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Offset.offset;

import dev.loomcrawl.crawler.values.ExecutionMode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CeilingsTest {

    @ParameterizedTest(name = "{0} over {1}s = {2}/s")
    @CsvSource({"200, 0.3, 666.67", "1000, 3.0, 333.33", "32, 0.1, 320", "8000, 3.0, 2666.67"})
    void littlesLaw(double concurrency, double latency, double expected) {
        assertThat(Ceilings.littlesLaw(concurrency, latency)).isCloseTo(expected, offset(0.01));
    }

    @Test
    void poolIsBoundByItsSizeAndVirtualByPermitsCpuOrDepth() {
        // seed: 500 hosts x 8 permits, 300 ms, 2 cores, 0.35 ms CPU per page, 10,500 pages, 4 levels
        var pool = Ceilings.of(new Ceilings.Inputs("pool", 200, 500, 8, 10_000, 0.3, 2, 0.00035, 10_500, 4));
        assertThat(pool.binding().getKey()).isEqualTo("pool size");
        assertThat(pool.binding().getValue()).isCloseTo(666.67, offset(0.01));
        assertThat(pool.efficiency(624)).isCloseTo(0.936, offset(0.001));

        var virtual = Ceilings.of(new Ceilings.Inputs("virtual", 200, 500, 8, 10_000, 0.3, 2, 0.00035, 10_500, 4));
        assertThat(virtual.pagesPerSecond()).containsEntry("per-host permits", 4_000 / 0.3);
        assertThat(virtual.binding().getKey()).isEqualTo("CPU");
        assertThat(virtual.binding().getValue()).isCloseTo(2 / 0.00035, offset(0.01));

        // polite: 4 hosts x 8 permits bind both modes
        var polite = Ceilings.of(new Ceilings.Inputs("virtual", 200, 4, 8, 10_000, 0.1, 2, 0.0001, 4_004, 7));
        assertThat(polite.binding().getKey()).isEqualTo("per-host permits");
        assertThat(polite.binding().getValue()).isCloseTo(320, offset(0.01));

        // slow, virtual: three 3-second levels bind
        var slow = Ceilings.of(new Ceilings.Inputs("virtual", 200, 1_000, 8, 10_000, 3.0, 2, 0.0003, 9_000, 3));
        assertThat(slow.binding().getKey()).isEqualTo("crawl depth");
        assertThat(slow.binding().getValue()).isCloseTo(1_000, offset(0.01));
    }

    @Test
    void maxInFlightCapsVirtualConcurrency() {
        var capped = Ceilings.of(new Ceilings.Inputs("virtual", 200, 100_000, 8, 10_000, 1.0, 2, 0, 0, 0));
        assertThat(capped.pagesPerSecond()).containsOnlyKeys("per-host permits").containsEntry("per-host permits", 10_000.0);
    }

    @Test
    void medians() {
        assertThat(Ceilings.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Ceilings.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(Ceilings.median(List.of())).isNaN();
    }

    @Test
    void modeSpecs() {
        assertThat(ModeSpec.parse("virtual")).isEqualTo(new ModeSpec(ExecutionMode.VIRTUAL, 200));
        assertThat(ModeSpec.parse("pool")).isEqualTo(new ModeSpec(ExecutionMode.POOL, 200));
        assertThat(ModeSpec.parse(" pool:1000 ").label()).isEqualTo("pool:1000");
        assertThatIllegalArgumentException().isThrownBy(() -> ModeSpec.parse("pool:0"));
        assertThatIllegalArgumentException().isThrownBy(() -> ModeSpec.parse("virtual:5"));
        assertThatIllegalArgumentException().isThrownBy(() -> ModeSpec.parse("threads"));
    }
}
