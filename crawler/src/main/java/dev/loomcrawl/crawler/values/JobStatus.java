package dev.loomcrawl.crawler.values;

import java.util.Locale;

/** Where a job is in its life. */
public enum JobStatus {
    QUEUED, RUNNING,
    /** Stopped on purpose (Ctrl-C, a graceful shutdown) before its end: resumable. */
    SUSPENDED,
    DONE, CANCELLED, FAILED;

    public boolean finished() {
        return this == DONE || this == CANCELLED || this == FAILED;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
