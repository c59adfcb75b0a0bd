package dev.loomcrawl.crawler.values;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a job did, over its whole life (every process that ran it), as reported at its end; while it runs,
 * as far as it got.
 *
 * @param pages URLs stored without a failure (pages and redirects)
 * @param failed URLs stored with a failure
 * @param skipped URLs recorded without being fetched or kept on purpose: robots.txt forbids them, or their
 *     type is not kept
 * @param seconds crawl time, summed over the processes that ran the job
 * @param pagesPerSecond HTTP requests for pages per second, failed ones and retries included
 * @param statuses stored URLs by the HTTP status of their last response (URLs with no response are not here)
 * @param failures failed URLs by {@link FailureKind#label()}
 * @param skips skipped URLs by reason
 * @param topFailures the most common failures with their detail, most first
 * @param hostsGivenUp hosts given up, with why (at most 20)
 * @param latencyMs request start to last body byte, per stored URL's last request
 * @param pageLatencyMs task latency: handed out to stored, so time queued for a pool thread counts
 * @param retries further requests made after retryable failures
 * @param peakPlatformThreads most live platform threads in this JVM while the job ran
 * @param cpuSeconds CPU time of the whole process while the job ran, summed over its runs (-1 if unknown)
 * @param runs processes that ran the job: more than 1 after a restart
 */
public record JobSummary(
        long jobId,
        String status,
        String mode,
        int poolSize,
        int perHostConcurrency,
        long pages,
        long failed,
        long skipped,
        long bytes,
        double seconds,
        double pagesPerSecond,
        Map<String, Long> statuses,
        Map<String, Long> failures,
        Map<String, Long> skips,
        List<TopFailure> topFailures,
        Map<String, String> hostsGivenUp,
        Latency latencyMs,
        Latency pageLatencyMs,
        long retries,
        int peakPlatformThreads,
        double cpuSeconds,
        int runs) {
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** A failure and how many URLs ended with it. */
    public record TopFailure(String kind, @Nullable String detail, long count) {}

    /** URLs fetched with a result, failures included: what {@code --max-pages} counts against. */
    public long fetched() {
        return pages + failed;
    }

    /**
     * Why a job that ended found no page, in one line: its most common failure, a host given up, or its skips.
     * A job that ends so has {@code failed}, whoever reads it (the CLI's exit code, the API, the dashboard).
     */
    public String whyNoPage() {
        String why = "no page could be fetched";
        if (!topFailures.isEmpty()) {
            TopFailure f = topFailures.getFirst();
            return why + ": " + f.kind() + (f.detail() == null ? "" : ": " + f.detail());
        }
        if (!hostsGivenUp.isEmpty()) {
            return why + ": " + hostsGivenUp.values().iterator().next();
        }
        return skipped > 0 ? why + ": every URL was skipped " + skips : why;
    }

    /** This summary as JSON, as it is stored with its job and as {@code crawl --json} prints it. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a summary is always writable", e);
        }
    }

    /** A stored summary, or null if there is none or it is unreadable (from a version that wrote another shape). */
    public static @Nullable JobSummary fromJson(@Nullable String json) {
        if (json == null || !json.startsWith("{")) {
            return null;
        }
        try {
            return JSON.readValue(json, JobSummary.class);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
