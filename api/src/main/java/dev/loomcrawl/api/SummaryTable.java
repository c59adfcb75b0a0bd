package dev.loomcrawl.api;

import dev.loomcrawl.crawler.CrawlSummary;
import java.io.PrintWriter;

/** A job summary for people. */
final class SummaryTable {
    private SummaryTable() {}

    static void print(CrawlSummary s, PrintWriter out) {
        out.printf("job %d %s: %s mode%s, per-host %d%n", s.jobId(), s.status(), s.mode(),
                s.mode().equals("pool") ? " (" + s.poolSize() + " threads)" : "", s.perHostConcurrency());
        out.printf("  pages %,d   failed %,d   bytes %,d%n", s.pages(), s.failed(), s.bytes());
        out.printf("  %.2f s   %,.1f pages/s   CPU %.2f s%n", s.seconds(), s.pagesPerSecond(), s.cpuSeconds());
        out.printf("  fetch latency ms  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f%n", s.latencyMs().p50(),
                s.latencyMs().p95(), s.latencyMs().p99(), s.latencyMs().max());
        out.printf("  peak platform threads %d%n", s.peakPlatformThreads());
        out.printf("  statuses %s%s%n", s.statuses(), s.failures().isEmpty() ? "" : "   failures " + s.failures());
    }
}
