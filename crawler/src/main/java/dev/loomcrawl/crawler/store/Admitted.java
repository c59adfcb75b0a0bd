package dev.loomcrawl.crawler.store;

import org.jspecify.annotations.Nullable;

/**
 * A URL a job admitted to its frontier: stored before the page that found it, so that a restarted job
 * knows everything it had yet to fetch.
 *
 * @param redirects redirect hops that led here from a linked URL
 * @param referrer the page that first linked to it, or null for a seed
 */
public record Admitted(long jobId, String url, int depth, int redirects, @Nullable String referrer) {
    /** In the store's log of admissions, {@code redirects} of a row that only lowers an admitted URL's depth. */
    static final int DEPTH_ONLY = -1;
}
