package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A URL of the job, in its host's {@link HostQueue} or handed out: its place in the crawl (depth, redirects,
 * referrer), its state, and once expanded its links. Fields are guarded by the frontier's lock.
 */
public final class Node {
    public enum State { QUEUED, LEASED, COMPLETING, DONE }

    public final CrawlUrl url;
    public final @Nullable HostQueue host; // null for URLs recorded on sight (robots.txt, invalid)
    final @Nullable String referrer;
    public final int redirects;
    public int depth;
    int attempts;
    /** Attempts that failed while their host answered nothing but failures: the server's trouble, not the URL's. */
    int spared;
    /**
     * Attempts, not {@link #spared}, answered with a {@code Retry-After}: the server asking to be asked later, which
     * its other failures' retries do not pay for.
     */
    int rested;
    /** Its failure counted in its host's {@link FailureRun}: its failing again is not counted. */
    boolean failureCounted;
    long notBefore;
    /** Its host's robots.txt allowed it on admission: a host's rules, once known, stay, so it is not asked again. */
    boolean robotsAllowed;
    public State state = State.QUEUED;
    /** Once expanded: the URLs this page links to in the crawl, for a shorter path to lower their depth. */
    Node @Nullable [] links;
    /** Once expanded: the redirect's target, whose depth follows this URL's. */
    @Nullable Node redirectTo;
    /** Once expanded: links past the depth limit, admitted if this page is found closer to a seed. */
    CrawlUrl @Nullable [] beyond;
    /** What the URL's last visit found and when it is due again, once a job that revisits has stored it. */
    @Nullable Visit visit;

    public Node(CrawlUrl url, @Nullable HostQueue host, int depth, int redirects, @Nullable String referrer) {
        this.url = url;
        this.host = host;
        this.depth = depth;
        this.redirects = redirects;
        this.referrer = referrer;
    }

    /** The host queue of a URL queued or handed out: only a URL recorded on sight has none. */
    public HostQueue queue() {
        return Objects.requireNonNull(host, "a URL recorded on sight is never queued");
    }

    /** The URL had {@code attempts} requests before it was queued here (an earlier run, another node). */
    public Node triedBefore(int attempts) {
        this.attempts = attempts;
        return this;
    }

    /** What the URL's last visit found, once a job that revisits stored it; null before its first visit. */
    public @Nullable Visit visit() {
        return visit;
    }
}

