package dev.loomcrawl.crawler.values;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A job as stored.
 *
 * @param config the job's whole configuration as JSON ({@code CrawlConfig}'s codec)
 * @param summary the summary JSON once the job has ended (or was suspended), else null
 * @param activeSeconds crawl time summed over every process that ran the job
 * @param cpuSeconds process CPU time summed likewise
 * @param runs how many times a process started or resumed the job
 * @param cluster whether nodes of a cluster share the job through the database
 * @param aliveAt when a process running the job last recorded its time (null: never, or before this column)
 */
public record JobRow(long id, Instant createdAt, @Nullable Instant finishedAt, String status, String mode, int poolSize,
        String config, @Nullable String summary, double activeSeconds, double cpuSeconds, int runs, boolean cluster,
        @Nullable Instant aliveAt) {

    /**
     * A running job's process records its time this often ({@code alive_at}): a killed process loses at most
     * this much of the job's time.
     */
    public static final Duration CHECKPOINT = Duration.ofSeconds(1);

    /** A job stored as running and not heard of for this long has lost its process. */
    public static final Duration SILENCE = Duration.ofSeconds(15);

    /** The statuses of a job that has not ended: it is resumed, and may be cancelled. */
    public static final List<String> UNFINISHED = List.of("queued", "running", "suspended");

    public boolean unfinished() {
        return UNFINISHED.contains(status);
    }

    /**
     * The status to show for a job no process of ours runs: as stored, but {@code interrupted} for a job stored
     * as running whose process is gone (it was killed; {@code resume} or a restarted serve continues it). It is
     * gone when the database has no other user ({@code soleUser}: an H2 file this process holds), or when it
     * has not recorded its time for {@link #SILENCE}.
     */
    public String shownStatus(Instant now, boolean soleUser) {
        if (!status.equals("running")) {
            return status;
        }
        boolean silent = aliveAt == null || Duration.between(aliveAt, now).compareTo(SILENCE) > 0;
        return soleUser || silent ? "interrupted" : status;
    }
}
