package dev.loomcrawl.bench;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a crawl could achieve at best, by each limit, and which one binds. Pure arithmetic.
 *
 * <ul>
 *   <li>Little's law: throughput = concurrency / latency. A pool of N threads holds N fetches at once
 *       (ceiling N / latency); virtual threads hold as many as the per-host permits allow
 *       (hosts x perHost, capped by maxInFlight).
 *   <li>CPU: cores / CPU seconds per page, the crawler's and the farm's together (they share the machine).
 *   <li>Depth: a crawl of D levels takes at least (D + 1) latencies, robots.txt being one more level.
 * </ul>
 */
record Ceilings(Map<String, Double> pagesPerSecond) {

    /** Inputs, all measured or configured. */
    record Inputs(String mode, int poolSize, int hosts, int perHost, int maxInFlight, double latencySeconds,
            int cores, double cpuSecondsPerPage, long pages, int levels) {}

    static Ceilings of(Inputs in) {
        Map<String, Double> c = new LinkedHashMap<>();
        double concurrency = in.mode().equals("pool") ? in.poolSize()
                : Math.min((double) in.hosts() * in.perHost(), in.maxInFlight());
        String threadLimit = in.mode().equals("pool") ? "pool size" : "per-host permits";
        c.put(threadLimit, littlesLaw(concurrency, in.latencySeconds()));
        if (in.cpuSecondsPerPage() > 0) {
            c.put("CPU", in.cores() / in.cpuSecondsPerPage());
        }
        if (in.levels() > 0 && in.latencySeconds() > 0) {
            c.put("crawl depth", in.pages() / (in.levels() * in.latencySeconds()));
        }
        return new Ceilings(c);
    }

    static double littlesLaw(double concurrency, double latencySeconds) {
        return latencySeconds <= 0 ? Double.POSITIVE_INFINITY : concurrency / latencySeconds;
    }

    /** The lowest ceiling: the one that binds. */
    Map.Entry<String, Double> binding() {
        return pagesPerSecond.entrySet().stream().min(Comparator.comparingDouble(Map.Entry::getValue)).orElseThrow();
    }

    /** Achieved as a fraction of the binding ceiling. */
    double efficiency(double achievedPagesPerSecond) {
        return achievedPagesPerSecond / binding().getValue();
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
