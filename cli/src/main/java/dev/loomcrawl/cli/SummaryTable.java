package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.JobSummary;
import java.io.PrintWriter;

/** A job summary for people. */
final class SummaryTable {
    private SummaryTable() {}

    static void print(JobSummary s, PrintWriter out) {
        out.printf("job %d %s: %s mode%s, per-host %d%s%n", s.jobId(), s.status(), s.mode(),
                s.mode().equals("pool") ? " (" + s.poolSize() + " threads)" : "", s.perHostConcurrency(),
                s.runs() > 1 ? ", " + s.runs() + " runs" : "");
        out.printf("  pages %,d   failed %,d   skipped %,d   bytes %,d%n", s.pages(), s.failed(), s.skipped(), s.bytes());
        out.printf("  %.2f s   %,.1f requests/s   CPU %.2f s%n", s.seconds(), s.pagesPerSecond(), s.cpuSeconds());
        out.printf("  fetch latency ms  p50 %.1f  p95 %.1f  p99 %.1f  max %.1f%n", s.latencyMs().p50(),
                s.latencyMs().p95(), s.latencyMs().p99(), s.latencyMs().max());
        out.printf("  peak platform threads %d%s%n", s.peakPlatformThreads(),
                s.retries() > 0 ? String.format("   retries %,d", s.retries()) : "");
        out.printf("  statuses %s%n", s.statuses());
        if (!s.failures().isEmpty()) {
            out.printf("  failures %s%n", s.failures());
            for (JobSummary.TopFailure f : s.topFailures()) {
                out.printf("    %,6d  %s: %s%n", f.count(), f.kind(), f.detail() == null ? "" : f.detail());
            }
        }
        if (!s.skips().isEmpty()) {
            out.printf("  skipped %s%n", s.skips());
        }
        if (!s.hostsGivenUp().isEmpty()) {
            out.printf("  hosts given up: %d%n", s.hostsGivenUp().size());
            s.hostsGivenUp().entrySet().stream().limit(5)
                    .forEach(e -> out.printf("    %s: %s%n", e.getKey(), e.getValue()));
        }
    }
}
