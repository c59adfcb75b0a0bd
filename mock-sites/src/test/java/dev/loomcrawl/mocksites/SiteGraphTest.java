package dev.loomcrawl.mocksites;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SiteGraphTest {

    @Test
    void sameSeedSameGraphOtherSeedOtherGraph() {
        FarmConfig config = Scenario.SEED.config();
        SiteGraph a = new SiteGraph(config, 8080);
        SiteGraph b = new SiteGraph(config, 8080);
        SiteGraph other = new SiteGraph(new FarmConfig(config.hosts(), config.pagesPerHost(), config.linksPerPage(),
                config.crossHostLinks(), config.pageBytes(), config.seed() + 1, config.latency(), config.faults(),
                config.robotsLinks(), 0), 8080);
        boolean differs = false;
        for (int h = 0; h < 50; h++) {
            for (int p = 0; p < config.pagesPerHost(); p++) {
                assertThat(a.pageHtml(h, p)).isEqualTo(b.pageHtml(h, p));
                differs |= !a.links(h, p).equals(other.links(h, p));
            }
        }
        assertThat(differs).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void everyPageIsReachableFromItsHostsRootWithinTheKnownDepth(Scenario scenario) {
        SiteGraph graph = new SiteGraph(scenario.config(), 8080);
        int pages = scenario.config().pagesPerHost();
        for (int host : new int[] {0, scenario.config().hosts() - 1}) {
            Map<Integer, Integer> depth = new HashMap<>(Map.of(0, 0));
            ArrayDeque<Integer> queue = new ArrayDeque<>(java.util.List.of(0));
            while (!queue.isEmpty()) {
                int page = queue.poll();
                for (String link : graph.links(host, page)) {
                    int target = samePageIndex(link);
                    if (target >= 0 && !depth.containsKey(target)) {
                        depth.put(target, depth.get(page) + 1);
                        queue.add(target);
                    }
                }
            }
            assertThat(depth).hasSize(pages);
            assertThat(depth.values().stream().mapToInt(Integer::intValue).max().orElse(0))
                    .isLessThanOrEqualTo(graph.maxDepth());
        }
    }

    /** Page index of a same-host page link, following a redirect chain to its target; -1 otherwise. */
    private static int samePageIndex(String link) {
        if (link.equals("/")) {
            return 0;
        }
        int at = link.startsWith("/go/") ? link.indexOf("/page/") : link.startsWith("/page/") ? 0 : -1;
        return at < 0 ? -1 : Integer.parseInt(link.substring(at + 6));
    }

    @Test
    void titlesAreUniqueAndHostNamesRoundTrip() {
        SiteGraph graph = new SiteGraph(Scenario.POLITE.config(), 9000);
        assertThat(java.util.stream.IntStream.range(0, 1000).mapToObj(p -> graph.title(2, p)).distinct()).hasSize(1000);
        assertThat(graph.hostIndex("h3.loomcrawl.test:9000")).isEqualTo(3);
        assertThat(graph.hostIndex("H3.LOOMCRAWL.TEST")).isEqualTo(3);
        assertThat(graph.hostIndex("h4.loomcrawl.test")).isEqualTo(-1); // polite has 4 hosts: h0..h3
        assertThat(graph.hostIndex("example.com")).isEqualTo(-1);
        assertThat(graph.hostIndex("hx.loomcrawl.test")).isEqualTo(-1);
    }

    @Test
    void latencyModelsHaveTheirShape() {
        var random = new java.util.SplittableRandom(1);
        assertThat(LatencyModel.parse("300").sample(random)).isEqualTo(300);
        LatencyModel u = LatencyModel.parse("uniform:100-500");
        double[] us = java.util.stream.IntStream.range(0, 20_000).mapToDouble(i -> u.sample(random)).toArray();
        assertThat(java.util.Arrays.stream(us).min().orElseThrow()).isGreaterThanOrEqualTo(100);
        assertThat(java.util.Arrays.stream(us).max().orElseThrow()).isLessThanOrEqualTo(500);
        assertThat(java.util.Arrays.stream(us).average().orElseThrow()).isCloseTo(300, org.assertj.core.data.Offset.offset(10.0));
        LatencyModel ln = LatencyModel.parse("lognormal:300,0.5");
        double[] ls = java.util.stream.IntStream.range(0, 20_001).mapToDouble(i -> ln.sample(random)).sorted().toArray();
        assertThat(ls[10_000]).isCloseTo(300, org.assertj.core.data.Offset.offset(12.0)); // the median
        assertThat(java.util.Arrays.stream(ls).average().orElseThrow())
                .isCloseTo(ln.meanMillis(), org.assertj.core.data.Offset.offset(15.0));
    }
}
