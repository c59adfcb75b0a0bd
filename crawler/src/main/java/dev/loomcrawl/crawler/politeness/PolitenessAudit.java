package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.fetch.RequestAudit;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * What one job asked of each politeness key, counted as each request leaves and comes back (robots.txt and
 * sitemaps included): enough to answer a webmaster's complaint with figures. Every request of the job's
 * fetcher passes here; its figures are stored with the job ({@code export JOB --politeness},
 * {@code GET /crawl/{id}/politeness}).
 *
 * <p>Its own clock decides "inside a {@code Retry-After} window": a request that starts before the window the
 * job was given has run out is counted as inside it. So is a request to a URL its host's robots.txt disallows.
 */
public final class PolitenessAudit implements RequestAudit {

    private static final class Key {
        final String key;
        long requests, answered, errors, inRetryAfter, robotsDisallowed, requestsDisallowed;
        int inFlight, maxInFlight, windows;
        long lastStart, shortestGap = Long.MAX_VALUE, crawlDelay = -1, restUntil, restNanos;
        @Nullable Instant first;
        @Nullable Instant last;

        Key(String key) {
            this.key = key;
        }
    }

    private final HostGates gates;
    private final PolitenessKey kind;
    private final Map<String, Key> keys = new HashMap<>();
    /**
     * Each host's key by name or domain, found once: every request passes here three times or more. Read without
     * the lock. An address key is looked up each time: DNS may move a host to another address.
     */
    private final Map<String, Key> byHost = new ConcurrentHashMap<>();
    /** Read without the lock: a request's robots.txt question is asked outside it. */
    private final Map<String, Robots.Rules> robots = new ConcurrentHashMap<>();

    public PolitenessAudit(HostGates gates, PolitenessKey kind) {
        this.gates = gates;
        this.kind = kind;
    }

    /** The key {@code url}'s requests count under, for this job's kind. */
    private Key key(CrawlUrl url) {
        boolean lasting = kind != PolitenessKey.IP;
        Key known = lasting ? byHost.get(url.hostKey()) : null;
        if (known != null) {
            return known;
        }
        String name = gates.key(Target.of(url), kind); // an address lookup, if any, outside our lock
        synchronized (this) {
            Key k = keys.computeIfAbsent(name, Key::new);
            if (lasting) {
                byHost.putIfAbsent(url.hostKey(), k);
            }
            return k;
        }
    }

    /** A request to {@code url} leaves now; {@link #ended} or {@link #withdrawn} follows. */
    @Override
    public void started(CrawlUrl url) {
        Key k = key(url);
        Robots.Rules rules = robots.get(url.hostKey());
        // asked outside the lock: a long robots.txt takes milliseconds a URL, and every request of the job passes here
        boolean disallowed = rules != null && !url.url().endsWith("/robots.txt") && !rules.allows(url);
        long now = System.nanoTime();
        synchronized (this) {
            k.requests++;
            k.maxInFlight = Math.max(k.maxInFlight, ++k.inFlight);
            if (k.lastStart != 0) {
                k.shortestGap = Math.min(k.shortestGap, now - k.lastStart);
            }
            k.lastStart = now;
            if (k.restUntil != 0 && k.restUntil - now > 0) {
                k.inRetryAfter++;
            }
            if (disallowed) {
                k.requestsDisallowed++;
            }
            k.last = Instant.now();
            if (k.first == null) {
                k.first = k.last;
            }
        }
    }

    /**
     * The request of {@code url} is over, answered with {@code status} (0: no answer); the server asked for
     * no request to its key for {@code restNanos} (0: it did not).
     */
    @Override
    public void ended(CrawlUrl url, int status, long restNanos) {
        if (restNanos > 0) {
            retryAfter(url, restNanos);
        }
        Key k = key(url);
        synchronized (this) {
            k.inFlight--;
            if (status > 0) {
                k.answered++;
            }
            if (status >= 500 || status == 429) {
                k.errors++;
            }
        }
    }

    /** The request never left (a start check said no at the last moment): not counted. */
    @Override
    public void withdrawn(CrawlUrl url) {
        Key k = key(url);
        synchronized (this) {
            k.inFlight--;
            k.requests--;
        }
    }

    /** The server asked {@code url}'s key for no request for {@code restNanos}, from now. */
    private void retryAfter(CrawlUrl url, long restNanos) {
        Key k = key(url);
        long until = System.nanoTime() + restNanos;
        synchronized (this) {
            if (k.restUntil == 0 || until - k.restUntil > 0) {
                k.windows++;
                k.restNanos += k.restUntil != 0 && k.restUntil - System.nanoTime() > 0 ? until - k.restUntil : restNanos;
                k.restUntil = until;
            }
        }
    }

    /** {@code url}'s host's robots.txt is known: its Crawl-delay is noted, and requests are held against it. */
    public void robots(CrawlUrl url, Robots.Rules rules) {
        Key k = key(url);
        synchronized (this) {
            robots.put(url.hostKey(), rules);
            long delay = TimeUnit.NANOSECONDS.toMillis(rules.crawlDelayNanos());
            if (delay > 0) {
                k.crawlDelay = Math.max(k.crawlDelay, delay);
            }
        }
    }

    /** A URL of {@code url}'s key was not fetched because robots.txt disallows it. */
    public void disallowed(CrawlUrl url) {
        Key k = key(url);
        synchronized (this) {
            k.robotsDisallowed++;
        }
    }

    /** Every key's figures, most requests first. */
    public synchronized List<KeyAudit> figures() {
        List<KeyAudit> all = new ArrayList<>(keys.size());
        for (Key k : keys.values()) {
            all.add(new KeyAudit(k.key, k.requests, k.answered, k.errors, k.maxInFlight,
                    k.shortestGap == Long.MAX_VALUE ? null : Math.round(k.shortestGap / 1e4) / 100.0,
                    k.crawlDelay < 0 ? null : k.crawlDelay, k.windows, Math.round(k.restNanos / 1e7) / 100.0,
                    k.inRetryAfter, k.robotsDisallowed, k.requestsDisallowed, k.first, k.last));
        }
        all.sort((a, b) -> Long.compare(b.requests(), a.requests()));
        return all;
    }

    /** Figures stored by an earlier run of the job, to go on from (a resumed job). */
    public synchronized void restore(List<KeyAudit> stored) {
        for (KeyAudit f : stored) {
            Key k = keys.computeIfAbsent(f.key(), Key::new);
            k.requests += f.requests();
            k.answered += f.answered();
            k.errors += f.errors();
            k.maxInFlight = Math.max(k.maxInFlight, f.maxInFlight());
            if (f.shortestGapMillis() != null) {
                k.shortestGap = Math.min(k.shortestGap, (long) (f.shortestGapMillis() * 1e6));
            }
            if (f.crawlDelayMillis() != null) {
                k.crawlDelay = Math.max(k.crawlDelay, f.crawlDelayMillis());
            }
            k.windows += f.retryAfterWindows();
            k.restNanos += (long) (f.retryAfterSeconds() * 1e9);
            k.inRetryAfter += f.requestsInRetryAfter();
            k.robotsDisallowed += f.robotsDisallowed();
            k.requestsDisallowed += f.requestsDisallowed();
            k.first = k.first == null || f.firstRequest() != null && f.firstRequest().isBefore(k.first) ? f.firstRequest() : k.first;
            k.last = k.last == null || f.lastRequest() != null && f.lastRequest().isAfter(k.last) ? f.lastRequest() : k.last;
        }
    }
}
