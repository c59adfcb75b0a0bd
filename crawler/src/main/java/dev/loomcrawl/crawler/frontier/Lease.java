package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.revisit.Visit;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One URL handed to one task: a token that owns a permit of the URL's host and one of the process's fetch
 * slots, and is ended by exactly one outcome, {@link #complete} or {@link #retry} (or {@link
 * #robotsUnreachable}). {@link #close} ends a lease that got no outcome (its task was never run, or was
 * cancelled): its permits are freed and its URL goes back in the queue, unless the job was cancelled.
 *
 * <p>So the frontier is entered twice per URL: {@link Frontier#next} hands it out, the outcome ends it. The
 * outcome carries the exchange's {@link RetryPolicy.HostSignal}: the host's failure count and rest change
 * and its permit is freed in one step, so no other request to the host starts between the two; then, for
 * {@link #complete}, the result is stored with the permit already free. The permit covers the exchange and
 * the page's parse (a fraction of a millisecond against a request's hundreds).
 */
public interface Lease extends AutoCloseable {

    CrawlUrl url();

    /** The URL's depth when it was handed out (the stored depth is the frontier's at the end). */
    int depth();

    /** This attempt's number: 1 the first time. */
    int attempt();

    /**
     * This attempt's number against the URL's retries, if {@code exchange} ended it: its attempts, less those
     * that failed after a failure of their host came back and while it answered nothing good (the requests on
     * their way when a server goes down or asks for a rest fail together: the server's trouble, which its host's
     * run of failures counts, not the URL's); and unless {@code exchange} asked for a rest itself, less those
     * answered with a {@code Retry-After} (which have retries of their own: {@link RetryPolicy#retryIn}).
     */
    int charged(RetryPolicy.HostSignal exchange);

    /** Redirect hops that led to this URL. */
    int redirects();

    /** The page that first linked here, or null for a seed. */
    @Nullable String referrer();

    /** {@link System#nanoTime()} when the lease was handed out. */
    long leasedNanos();

    /**
     * Whether a request may start under this lease now: not while a gate it holds is closed (a {@code Retry-After}
     * rest or an operator's pause that came after it was handed out binds it too), and on a cluster node only
     * while the node's lease on the host has more than a whole fetch's time left.
     */
    default boolean mayStart() {
        return true;
    }

    /** The answer's headers are in: its server is done with the request. Called on the HTTP client's thread. */
    default void answering() {}

    /**
     * What this URL's last visit found (its validators for a conditional request, its digest and SimHash), when
     * this lease is a revisit of a stored URL; null on a first visit.
     */
    @Nullable Visit visit();

    /** Why this URL must be recorded without a request (robots.txt, its host given up), or null. */
    @Nullable Skip skip();

    /** The host's robots.txt must be fetched first, under this lease's permit. */
    boolean robotsUnknown();

    /** The host's robots.txt as fetched; the host opens to its full limit. Then {@link #skip} may be set. */
    void robots(Robots.Rules rules);

    /**
     * The host's robots.txt could not be had: the host rests with backoff (or is given up, after the job's
     * {@code robotsRetryFor}), and this URL waits its turn again. Ends the lease.
     */
    void robotsUnreachable(FetchResult.Failed failure);

    /**
     * URLs a sitemap lists: admitted at depth 1 (as if a seed linked to them), under the same rules as any
     * link. Does not end the lease.
     *
     * @return rows recorded on sight (listed URLs robots.txt forbids)
     */
    List<PageRecord> listed(List<Found> links, String sitemap) throws InterruptedException;

    /**
     * Tells the host how the exchange went and frees its permit and the fetch slot, then stores the URL's
     * result and admits what it links to (links before the page, so a page that survives a crash always has
     * its links). Ends the lease.
     *
     * @param exchange how the request went ({@link RetryPolicy.HostSignal#OK} when none was made)
     *
     * @return every row stored: links recorded on sight (robots.txt forbids them, or they are invalid), then
     *     the page at its depth as stored; empty if the job was cancelled meanwhile
     */
    List<PageRecord> complete(RetryPolicy.HostSignal exchange, PageRecord page, List<Found> links) throws InterruptedException;

    /**
     * Tells the host how the exchange went and frees its permit, and the URL goes back to its host's queue, to
     * be tried after {@code delay}. Ends the lease.
     */
    void retry(RetryPolicy.HostSignal exchange, Duration delay) throws InterruptedException;

    /** The change event {@link #complete} stored for this visit (a continuous job or a recrawl), or null. */
    default @Nullable Change change() {
        return null;
    }

    /** Ends a lease that got no outcome; does nothing after one. */
    @Override
    void close();

    /** Recorded without a request, and why. */
    record Skip(FailureKind kind, @Nullable String detail) {}

    /** What a page links to, as the frontier takes it. */
    sealed interface Found {
        /**
         * A link to follow (a redirect's target, when {@code redirect}).
         *
         * @param parsed the normalised URL, or null when {@code url} is one the frontier {@link Frontier#knows}
         * @param asked what its host's robots.txt said of it before the frontier took it; null: not asked yet
         */
        record Link(String url, @Nullable CrawlUrl parsed, boolean redirect, @Nullable Asked asked) implements Found {
            public Link(String url, @Nullable CrawlUrl parsed, boolean redirect) {
                this(url, parsed, redirect, null);
            }

            /**
             * Whether {@code rules} let the link be fetched: their answer before, when it was theirs (a host's rules,
             * once known, stay its rules for the job), else theirs now.
             */
            public boolean allowedBy(Robots.Rules rules) {
                if (asked != null && asked.rules() == rules) {
                    return asked.allowed();
                }
                return rules.allows(Objects.requireNonNull(parsed, "a link the frontier knows is not asked about"));
            }
        }
    }

    /** What a host's robots.txt said of a link, asked outside the frontier's lock ({@link FrontierLease}). */
    record Asked(Robots.Rules rules, boolean allowed) {
        /** {@code links}, those to {@code hostKey} each with what {@code rules} say of it. */
        static List<Found> each(List<Found> links, Robots.Rules rules, String hostKey) {
            List<Found> asked = new ArrayList<>(links.size());
            for (Found found : links) {
                asked.add(switch (found) {
                    case Found.Link link when link.parsed() instanceof CrawlUrl url && url.hostKey().equals(hostKey) ->
                            new Found.Link(link.url(), url, link.redirect(), new Asked(rules, rules.allows(url)));
                    case Found.Link link -> link;
                });
            }
            return asked;
        }
    }
}
