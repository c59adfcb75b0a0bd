package dev.loomcrawl.crawler.revisit;

import dev.loomcrawl.crawler.fetch.WebhookClient;
import dev.loomcrawl.crawler.store.ChangeFeed;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Freshness;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Sends a job's change events to its webhook, one POST per event, in the order they were stored (so in order
 * per URL), each signed: {@code X-Loomcrawl-Signature: sha256=<hex>}, the HMAC-SHA256 of the body under the
 * job's secret. A delivery the receiver does not answer with 2xx is sent again after a backoff (1 s, doubling
 * to a minute, or the receiver's {@code Retry-After} when longer), and the events after it wait: at least once,
 * in order.
 *
 * <p>It reads the events from the store, on a virtual thread of its own, so it never slows the crawl; and it
 * starts after the last event the store says was delivered, recorded after each 2xx, so a process killed at
 * any moment loses none (an event delivered but not yet recorded is sent again).
 *
 * <p>A receiver that does not take an event is told in one line, once while it keeps failing and once when it
 * takes events again; why, since when and after how many tries is kept in the store ({@link ChangeFeed#webhook}),
 * for {@code GET /crawl/{id}} on any node. A delivery trusts what the crawl's requests trust ({@link WebhookClient}).
 *
 * <p>Every node of a cluster runs the job, and one delivers: the store hands the delivery to one owner at a
 * time ({@link ChangeFeed#claimDelivery}), held for {@link #HOLD_SECONDS} and extended as it delivers. The others
 * ask now and then, and one takes over where the store says delivery stopped once a dead owner's hold runs out.
 */
public final class WebhookDelivery implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WebhookDelivery.class.getName());
    private static final Duration POLL = Duration.ofMillis(200);
    /** How long a claim on the delivery lasts unless its owner says again (at half of it, or as it delivers). */
    static final int HOLD_SECONDS = 10;
    /** How often a process that does not deliver asks whether the owner's hold ran out. */
    private static final Duration ASK = Duration.ofSeconds(1);
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int READ = 256;

    private final long jobId;
    private final String owner;
    private final Freshness.Webhook webhook;
    private final URI url;
    private final ChangeFeed feed;
    private final WebhookClient client;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean jobEnded;
    /** The last event delivered, as the claim found it and this process's deliveries since moved it. */
    private long delivered;
    /** The {@link System#nanoTime} by which this process must claim the delivery again to keep it; 0: not ours. */
    private long claimAgainAt;
    /** Whether this process has said the receiver fails, and not yet that it takes events again. */
    private boolean failingSaid;

    private WebhookDelivery(long jobId, String owner, Freshness.Webhook webhook, ChangeFeed feed, WebhookClient client) {
        this.jobId = jobId;
        this.owner = owner;
        this.webhook = webhook;
        this.url = URI.create(webhook.url());
        this.feed = feed;
        this.client = client;
        this.thread = Thread.ofVirtual().name("webhook-" + jobId).start(this::run);
    }

    /**
     * Starts delivering job {@code jobId}'s events after the last one delivered, as {@code owner} (a cluster
     * node's id; any one name for one process), once the store hands the delivery to it, on {@code client}, which
     * it closes when it stops.
     */
    public static WebhookDelivery start(long jobId, String owner, Freshness.Webhook webhook, ChangeFeed feed,
            WebhookClient client) {
        return new WebhookDelivery(jobId, owner, webhook, feed, client);
    }

    private void run() {
        boolean troubleSaid = false;
        try {
            while (stop.getCount() > 0) {
                try {
                    if (!ours()) {
                        if (jobEnded || stop.await(ASK.toMillis(), TimeUnit.MILLISECONDS)) {
                            return; // the owner delivers what is left
                        }
                        continue;
                    }
                    List<Change> events = feed.after(jobId, delivered, READ);
                    if (events.isEmpty()) {
                        if (jobEnded) {
                            return; // every event of an ended job is delivered
                        }
                        stop.await(POLL.toMillis(), TimeUnit.MILLISECONDS);
                        continue;
                    }
                    deliver(events);
                } catch (RuntimeException e) {
                    // The store failed (a database away): delivery goes on from the record once it answers again.
                    if (stop.getCount() == 0) {
                        return;
                    }
                    if (!troubleSaid) {
                        troubleSaid = true;
                        LOG.log(System.Logger.Level.WARNING, "job " + jobId + ": webhook delivery waits for the store: "
                                + e.getMessage());
                    }
                    claimAgainAt = 0;
                    stop.await(ASK.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        } finally {
            giveUp();
        }
    }

    /** Sends {@code events} in order, each until the receiver takes it; stops early if the delivery is no longer ours. */
    private void deliver(List<Change> events) throws InterruptedException {
        Duration backoff = FIRST_BACKOFF;
        for (Change event : events) {
            if (stop.getCount() == 0) {
                return; // closing: the next owner, or the next run, goes on from the last one recorded
            }
            WebhookClient.Refused refused;
            while ((refused = send(event)) != null) {
                // a receiver's Retry-After is obeyed, as a site's is; a shorter one does not shorten the backoff
                Duration rest = refused.retryAfter().compareTo(backoff) > 0 ? refused.retryAfter() : backoff;
                if (stop.await(rest.toMillis(), TimeUnit.MILLISECONDS) || !ours()) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
            backoff = FIRST_BACKOFF;
            boolean stillOurs = feed.delivered(jobId, owner, event.id(), HOLD_SECONDS);
            if (failingSaid) {
                failingSaid = false;
                LOG.log(System.Logger.Level.INFO, "job " + jobId + ": webhook " + WebhookClient.origin(url)
                        + " takes events again");
            }
            if (!stillOurs) {
                claimAgainAt = 0; // another took the delivery over meanwhile: it goes on from the store's record
                return;
            }
            claimAgainAt = claimAgainFrom(System.nanoTime());
            delivered = event.id();
        }
    }

    /**
     * Whether this process delivers now: it claims the delivery when it has none, or when half its hold has
     * passed, and then goes on from the last event the store says was delivered.
     */
    private boolean ours() {
        long now = System.nanoTime();
        if (claimAgainAt != 0 && now - claimAgainAt < 0) {
            return true;
        }
        long cursor = feed.claimDelivery(jobId, owner, HOLD_SECONDS);
        if (cursor < 0) {
            claimAgainAt = 0;
            return false;
        }
        delivered = cursor;
        claimAgainAt = claimAgainFrom(now);
        return true;
    }

    /** When a hold taken or extended at {@code now} is claimed again: at half of it. */
    private static long claimAgainFrom(long now) {
        return now + TimeUnit.SECONDS.toNanos(HOLD_SECONDS) / 2;
    }

    /** Lets another process take the delivery over at once, when this one had it. */
    private void giveUp() {
        if (claimAgainAt != 0) {
            claimAgainAt = 0;
            try {
                feed.releaseDelivery(jobId, owner);
            } catch (RuntimeException e) {
                // the store is closing: the hold runs out by itself
            }
        }
    }

    /**
     * One POST; null when the receiver answered 2xx. Else why not is recorded, and said once while it keeps
     * failing: the event is sent again after the backoff.
     */
    private WebhookClient.@Nullable Refused send(Change event) throws InterruptedException {
        byte[] body = Export.json(Export.rowOf(event)).getBytes(StandardCharsets.UTF_8);
        WebhookClient.Refused failed = client.post(url, Map.of(
                "Content-Type", "application/json",
                Freshness.Webhook.EVENT_ID, String.valueOf(event.id()),
                Freshness.Webhook.SIGNATURE, Freshness.Webhook.sign(webhook.secret(), body)), body, TIMEOUT);
        if (failed == null) {
            return null;
        }
        feed.deliveryFailed(jobId, owner, failed.why());
        if (!failingSaid) {
            failingSaid = true;
            LOG.log(System.Logger.Level.WARNING, "job " + jobId + ": webhook " + WebhookClient.origin(url) + " did not take event "
                    + event.id() + ": " + failed.why() + "; sent again with backoff, the events after it wait");
        }
        return failed;
    }

    /** How long a job that ended gives its webhook to take the events it has not had yet. */
    static final Duration GRACE = Duration.ofSeconds(30);

    /**
     * The job's run is over: a job that ended delivers what is left, waiting up to {@link #GRACE}, then stops; a
     * suspended one ({@code suspended}) stops at once, and its next run goes on from the last event delivered.
     */
    public void jobOver(boolean suspended) {
        if (suspended) {
            close();
            return;
        }
        jobEnded = true;
        try {
            if (!thread.join(GRACE)) {
                LOG.log(System.Logger.Level.WARNING, "job " + jobId + ": its webhook did not take every event within "
                        + GRACE.toSeconds() + " s; delivered up to event " + delivered);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /**
     * Stops once the event being sent is delivered and recorded (a receiver that does not answer is cut short
     * after the delivery timeout), then hands the delivery back; what is not delivered is delivered by another
     * node or the job's next run.
     */
    @Override
    public void close() {
        stop.countDown();
        try {
            // The event being sent is sent and recorded first: a delivery handed over (a node leaving, a job
            // suspended) then sends nothing twice. Only a receiver that does not answer is cut short.
            if (Thread.currentThread() != thread && !thread.join(TIMEOUT.plusSeconds(1))) {
                thread.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.interrupt();
        } finally {
            client.close();
        }
    }
}
