package dev.loomcrawl.crawler.frontier;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Queue;
import org.jspecify.annotations.Nullable;

/**
 * One host's share of one job: the URLs it has waiting (and those backing off after a failure), the
 * leases it has out, when it may be asked next, what its robots.txt says, and its run of failures. In the
 * manner of StormCrawler's {@code FetchItemQueue}, the queue owns all of that; its frontier calls it under
 * the frontier's lock and edits none of it.
 *
 * <p>Process-wide politeness (the host's permits, a rest its server asked for) is {@link HostGates}'s;
 * this class keeps what one job decides: its own per-host limit, the spacing robots.txt asks for, backoff
 * after a run of failures, and giving the host up.
 */
public final class HostQueue {

    /** Whether {@code node}'s row is in the store: done, or waiting for a revisit. */
    static boolean stored(Node node) {
        return node.state == Node.State.DONE || node.visit != null;
    }

    private static final Comparator<Node> BY_NOT_BEFORE = Comparator.comparingLong(n -> n.notBefore);

    /** robots.txt tries that fail to connect, every one, before the host is given up (at 0, 1 and 3 s). */
    static final int REFUSED_TRIES = 3;

    public final String hostKey;
    /** What its requests are limited by, at every level of politeness key. */
    final Target target;
    private final String host;
    private final int limit;
    private final ArrayDeque<Node> pending = new ArrayDeque<>();
    private @Nullable PriorityQueue<Node> backingOff; // made on first use: most hosts never need one
    private int leased;
    private long nextStart;
    private Robots.@Nullable Rules rules;
    private boolean robotsLeased;
    private int robotsFailures;
    private long firstRobotsFailure;
    private boolean robotsRefusedOnly; // every robots.txt try so far failed to connect
    private @Nullable String robotsFailure; // the last try's failure, said while the host waits
    private final FailureRun run = new FailureRun();
    private Lease.@Nullable Skip givenUp;

    // Scheduling marks, owned by the frontier.
    boolean inReady;
    boolean waitingForGate;
    long wakeAt;

    HostQueue(CrawlUrl first, int limit, Robots.@Nullable Rules rules) {
        this.hostKey = first.hostKey();
        this.host = first.host();
        this.target = Target.of(first);
        this.limit = limit;
        this.rules = rules;
    }

    /** {@code url} with this host's one copy of its host strings: 130 bytes less per queued URL. */
    public CrawlUrl shared(CrawlUrl url) {
        return url.host() == host ? url : new CrawlUrl(url.url(), host, hostKey);
    }

    /**
     * A new URL waits its turn, at the back of the line; a redirect's target goes first. It ends a request
     * already made (a browser, and most crawlers' HTTP clients, ask for it at once): at the back, each hop of a
     * chain would wait for every URL found before it, and a crawl's last seconds would be its hosts' chains.
     */
    void add(Node node) {
        if (node.redirects > 0) {
            pending.addFirst(node);
        } else {
            pending.add(node);
        }
    }

    /** A URL back from a lease: first in line, or backing off until {@code notBefore}. */
    void requeue(Node node, long now) {
        if (node.notBefore - now > 0) {
            if (backingOff == null) {
                backingOff = new PriorityQueue<>(BY_NOT_BEFORE);
            }
            backingOff.add(node);
        } else {
            pending.addFirst(node);
        }
    }

    /** URLs of this host waiting, backing off included. */
    public int size() {
        return pending.size() + (backingOff == null ? 0 : backingOff.size());
    }

    /** URLs of this host whose time has come: every pending one, and retries and revisits due by {@code now}. */
    int dueCount(long now) {
        int due = pending.size();
        if (backingOff != null) {
            for (Node node : backingOff) {
                due += node.notBefore - now <= 0 ? 1 : 0;
            }
        }
        return due;
    }

    /**
     * The URL to hand out next if one is due now, or null: a retry whose backoff is over first, the longest due.
     * It stays put until leased: moved ahead at each asking of a resting host, the retry that failed last would go
     * first after every rest, charged each time, out of retries while its host is still waited for.
     */
    Node due(long now) {
        Node retry = backingOff == null ? null : backingOff.peek();
        return retry != null && retry.notBefore - now <= 0 ? retry : pending.peekFirst();
    }

    /** Takes {@code node}, as {@link #due} gave it, out of its queue. */
    private void take(Node node) {
        Queue<Node> queue = backingOff != null && backingOff.peek() == node ? backingOff : pending;
        queue.poll();
    }

    /** When this host will next have a URL due or a slot open by the clock alone; 0 if never by itself. */
    long wakeTime(long now) {
        long wake = 0;
        if (!pending.isEmpty() && nextStart - now > 0) {
            wake = nextStart;
        }
        if (backingOff != null && !backingOff.isEmpty()) {
            long retry = Math.max(backingOff.peek().notBefore, nextStart);
            wake = wake == 0 ? retry : Math.min(wake, retry);
        }
        return wake;
    }

    /** Why {@code node} must be recorded without a request, or null. */
    Lease.@Nullable Skip skipFor(Node node) {
        if (givenUp != null) {
            return givenUp;
        }
        if (rules != null && !node.robotsAllowed && !rules.allows(node.url)) {
            return new Lease.Skip(FailureKind.ROBOTS, rules.reason());
        }
        return null;
    }

    /** No lease can be had until one comes back: the job's limit is reached, or robots.txt is being fetched. */
    boolean busy() {
        return leased >= limit || robotsLeased;
    }

    boolean spacedUntil(long now) {
        return nextStart - now > 0;
    }

    long nextStart() {
        return nextStart;
    }

    public boolean robotsKnown() {
        return rules != null;
    }

    public Robots.@Nullable Rules rules() {
        return rules;
    }

    /** Hands out {@code node}, as {@link #due} gave it, for a request. */
    void lease(Node node, long now, long hostDelayNanos) {
        take(node);
        node.state = Node.State.LEASED;
        leased++;
        if (rules == null) {
            robotsLeased = true; // one request at a time until robots.txt is known
        }
        long spacing = Math.max(rules == null ? 0 : rules.crawlDelayNanos(), hostDelayNanos);
        if (spacing > 0) {
            nextStart = now + spacing;
        }
    }

    /** Hands out {@code node}, as {@link #due} gave it, to be recorded without a request. */
    void leaseSkip(Node node) {
        take(node);
        node.state = Node.State.LEASED;
    }

    /**
     * The request of {@code node}, handed out at {@code leasedNanos}, is over: counts its attempt, rests the host
     * for the whole process when the server asked (before this job's count for the host drops, so nothing slips
     * out first), and counts the {@link FailureRun}, which rests the host with backoff when long (a rest asked for
     * is the whole wait) and gives it up when longer. Returns when the rest ends (0: none), for
     * {@link HostGates#exit}.
     */
    long exchangeOver(Node node, RetryPolicy.HostSignal signal, HostGates gates, long leasedNanos, long now,
            int failureLimit) {
        node.attempts++;
        leased--;
        FailureKind trouble = signal.trouble();
        if (signal.hostGone() != null && givenUp == null) {
            givenUp = new Lease.Skip(FailureKind.CONNECT, signal.hostGone());
            return 0;
        }
        long restUntil = 0;
        if (!signal.rest().isZero()) {
            restUntil = now + signal.rest().toNanos();
            gates.rest(hostKey, restUntil);
        }
        boolean spared = trouble != null && run.spares(leasedNanos);
        node.spared += spared ? 1 : 0;
        node.rested += signal.restAsked() && !spared ? 1 : 0;
        if (trouble == null) {
            run.goodAnswer(now);
        } else {
            int failures = run.count(node, leasedNanos, now); // 0: not counted, and below every limit
            if (failures >= failureLimit && givenUp == null) {
                givenUp = new Lease.Skip(trouble, "host given up after " + failureLimit + " URLs failed in a row");
            } else if (restUntil == 0 && failures >= RetryPolicy.TROUBLE_RUN) {
                long backoff = RetryPolicy.backoff(failures - RetryPolicy.TROUBLE_RUN + 1).toNanos();
                nextStart = Math.max(nextStart, now + backoff);
            }
        }
        return restUntil;
    }

    /** Whether a failure of a request handed out at {@code leasedNanos} costs its URL no retry ({@link FailureRun}). */
    boolean spares(long leasedNanos) {
        return run.spares(leasedNanos);
    }

    /**
     * The host's robots.txt, known at {@code now}: its {@code Crawl-delay} counts from here, as the request that
     * fetched it goes on to its page at once (spaced at its lease, before the delay was known).
     */
    public void robotsKnown(Robots.Rules value, long now) {
        rules = value;
        robotsLeased = false;
        robotsFailures = 0;
        robotsFailure = null;
        if (value.crawlDelayNanos() > 0) {
            nextStart = Math.max(nextStart, now + value.crawlDelayNanos());
        }
    }

    /**
     * Why this host's URLs wait, for the progress line, or null when they do not: its robots.txt failed and
     * is tried again at {@code nextStart}.
     */
    @Nullable String waiting(long now) {
        if (robotsFailure == null || givenUp != null || rules != null) {
            return null;
        }
        long in = Math.max(0, nextStart - now);
        return "robots.txt " + robotsFailure + "; try " + (robotsFailures + 1) + " in " + Math.round(in / 1e9) + " s";
    }

    /** robots.txt could not be had: rest with backoff, or give the host up after {@code retryFor}. */
    void robotsUnreachable(FetchResult.Failed failure, long now, Duration retryFor) {
        robotsLeased = false;
        leased--;
        if (robotsFailures++ == 0) {
            firstRobotsFailure = now;
            robotsRefusedOnly = true;
        }
        robotsRefusedOnly &= failure.kind() == FailureKind.CONNECT;
        robotsFailure = failure.kind().label() + (failure.detail() == null ? "" : ": " + failure.detail());
        long trying = now - firstRobotsFailure;
        // A host that refuses every connection is not coming back in a minute, unlike one answering 5xx.
        boolean refused = robotsRefusedOnly && robotsFailures >= REFUSED_TRIES;
        if (failure.permanent() || refused || trying >= retryFor.toNanos()) {
            String why = failure.permanent() ? failure.detail()
                    : (refused ? "no connection to robots.txt in " : "robots.txt unreachable for ")
                            + Math.round(trying / 1e9) + " s (" + robotsFailures + " tries): " + failure.detail();
            givenUp = new Lease.Skip(failure.kind(), why);
            return;
        }
        nextStart = now + Math.min(Robots.backoff(robotsFailures).toNanos(), retryFor.toNanos() - trying + 1);
    }

    /** A lease ended without an outcome (its task never ran). */
    void abandoned(boolean requestLease, boolean robotsLease) {
        if (requestLease) {
            leased--;
        }
        if (robotsLease) {
            robotsLeased = false;
        }
    }

    /** Given up, and why: its URLs are recorded unfetched. */
    Lease.@Nullable Skip givenUp() {
        return givenUp;
    }

    void clear() {
        pending.clear();
        if (backingOff != null) {
            backingOff.clear();
        }
    }

    @Override
    public String toString() {
        return hostKey;
    }
}
