package dev.loomcrawl.crawler;

import java.util.List;
import java.util.Map;

/**
 * The URLs of one job yet to be crawled, and the rules by which they are handed out: each URL once, at its
 * shortest depth, no host asked more often than it allows. {@link MemoryFrontier} keeps them in this
 * process.
 *
 * <p>A task gets its URL as a {@link Lease} from {@link #next} and ends it with one outcome.
 */
interface Frontier {

    /** Admits the seeds at depth 0; seeds the job already has (a resumed job) admit nothing. */
    void seed(List<CrawlUrl> seeds) throws InterruptedException;

    /**
     * Waits until some host may be asked for a URL and hands it out with {@code slot}, which the lease now
     * owns; returns null once the crawl is over, suspended or cancelled (the slot is then the caller's).
     */
    Lease next(FetchLimit.Slot slot) throws InterruptedException;

    /** Whether {@code url}, exactly as written, is a URL this job already has: no need to normalise it. */
    boolean knows(String url);

    /** URLs waiting. */
    int queued();

    /** Leases handed out and not yet ended. */
    int inFlight();

    /** Hosts given up so far, with why. */
    Map<String, String> givenUpHosts();

    /** Hosts whose URLs wait for something other than their turn (robots.txt failing), with why; a few at most. */
    default Map<String, String> waitingHosts() {
        return Map.of();
    }

    /** Hands out nothing more; leases out end as usual and store their results (a graceful stop). */
    void drain();

    /** Hands out nothing more and stores nothing more; what is stored stays. */
    void cancel();
}
