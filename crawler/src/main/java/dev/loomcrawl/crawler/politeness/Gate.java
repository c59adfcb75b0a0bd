package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyView;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One politeness key's gate: a {@link Semaphore} with as many permits as the key may have requests in flight
 * (its limit, lowered by {@link Adaptive} while the server struggles), the time before which nothing may start
 * (a {@code Retry-After} rest, a pause set by an operator, the gap after the last start), and what the key's
 * requests looked like, for {@code GET /hosts}. Its fields change under its own monitor, in sections that
 * never block; permits are given back outside it.
 */
final class Gate {
    /** A semaphore whose permits can be taken away: a lower limit applies as requests come back. */
    private static final class Permits extends Semaphore {
        Permits(int permits) {
            super(permits);
        }

        void reduce(int by) {
            reducePermits(by);
        }
    }

    /** Who found the gate full, and for which of its host queues. */
    record Waiter(HostGates.Listener listener, String hostKey) {}

    /** How long a start is counted in the request rate. */
    private static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);

    final String key;
    final PolitenessKey kind;
    final ConcurrentLinkedQueue<Waiter> waiting = new ConcurrentLinkedQueue<>();
    private final Permits permits;
    private final @Nullable Adaptive adaptive; // null: the limit is fixed
    private int limit;
    private int circulating; // permits the semaphore was given: limit, or less while adaptivity holds it back
    private long heldBackSince; // System.nanoTime() since circulating is below limit, 0: it is not
    private long minGapNanos;
    private long pausedUntil; // System.nanoTime(), 0: not paused
    private @Nullable Instant pausedUntilInstant;
    private long restUntil; // Retry-After, 0: none
    private long nextStart;
    private long lastStart;
    private long lastUsed;
    private long requests;
    private long windowStart;
    private int windowStarts;
    private double lastRate;
    private boolean dead;
    /**
     * Requests started whose answer has not begun to come: what the server has in hand, as near as a client can
     * count it. The permits in use count more: answers read, or waiting for a carrier to be read, whose request the
     * server is done with (a burst's answers come together and are read one after another).
     */
    private int awaiting;

    Gate(String key, PolitenessKey kind, @Nullable HostSetting setting, int defaultLimit, boolean adaptive, long now) {
        this.key = key;
        this.kind = kind;
        this.limit = setting != null && setting.limit() != null ? setting.limit() : defaultLimit;
        this.adaptive = adaptive ? new Adaptive(limit) : null;
        this.circulating = this.adaptive == null ? limit : this.adaptive.allowed(limit);
        this.permits = new Permits(circulating);
        this.lastUsed = now;
        this.windowStart = now;
        apply(setting, defaultLimit, now);
    }

    /** When something stops a request from starting now (a rest, a pause, the gap), or 0 when nothing does. */
    synchronized long blockedUntil(long now) {
        return later(later(later(0, restUntil, now), pausedUntil, now), nextStart, now);
    }

    /** The later of {@code until} and {@code t}, counting {@code t} only while it is still ahead of {@code now}. */
    private static long later(long until, long t, long now) {
        return t != 0 && t - now > 0 && (until == 0 || t - until > 0) ? t : until;
    }

    /** Whether a rest or a pause holds now: a request already handed out must not leave either. */
    synchronized boolean closed(long now) {
        return restUntil != 0 && restUntil - now > 0 || pausedUntil != 0 && pausedUntil - now > 0;
    }

    /** Takes a permit if one is free and fewer than {@code cap} requests of the key are in flight. */
    synchronized boolean take(int cap) {
        if (dead || inUse() >= cap) {
            return false;
        }
        return permits.tryAcquire();
    }

    /**
     * Takes a permit of each gate, all or none; at the gates of {@code kind} (not the host's, which its host queue
     * limits) only while fewer than {@code cap} of the key's requests are in flight. Returns the gate that had
     * none, or null.
     */
    static @Nullable Gate takeAll(Gate[] held, PolitenessKey kind, int cap) {
        for (int i = 0; i < held.length; i++) {
            int most = held[i].kind == kind && kind != PolitenessKey.HOST ? cap : Integer.MAX_VALUE;
            if (!held[i].take(most)) {
                for (int j = 0; j < i; j++) {
                    held[j].untake();
                    held[j].wake();
                }
                return held[i];
            }
        }
        return null;
    }

    /** Tells whoever found the gate full to try again; called with no lock of ours held. */
    void wake() {
        Waiter w;
        while ((w = waiting.poll()) != null) {
            w.listener().opened(w.hostKey());
        }
    }

    /** Counts a permit forced on the gate: a request already in flight when the gate's kind came into force. */
    synchronized void force() {
        permits.reduce(1);
    }

    /**
     * A request of the key starts now: the gap to the next starts here. Returns the key's requests awaiting their
     * answers, this one included: its load ({@link Reply#load}).
     */
    synchronized int started(long now) {
        long gap = Math.max(minGapNanos, adaptive == null ? 0 : adaptive.gapNanos());
        nextStart = gap == 0 ? 0 : now + gap;
        lastStart = now;
        lastUsed = now;
        requests++;
        if (now - windowStart > RATE_WINDOW_NANOS) {
            lastRate = windowStarts * 1e9 / (now - windowStart);
            windowStart = now;
            windowStarts = 0;
        }
        windowStarts++;
        return ++awaiting;
    }

    /** The answer to one of the key's requests has begun to come (its headers are in, or it failed). */
    synchronized void answering() {
        awaiting--;
    }

    /** A request of the key is over: gives its permit back. */
    void ended(Reply reply, long now) {
        synchronized (this) {
            lastUsed = now;
            if (adaptive != null && adaptive.answered(reply, limit, inUse() >= circulating)) {
                resize(adaptive.allowed(limit), now);
            }
        }
        permits.release();
    }

    /** Gives back a permit taken by {@link #take} for a request that never started. */
    void untake() {
        permits.release();
    }

    /** An operator's setting (null: none), over the process's default limit. */
    synchronized void apply(@Nullable HostSetting setting, int defaultLimit, long now) {
        limit = setting != null && setting.limit() != null ? setting.limit() : defaultLimit;
        minGapNanos = setting != null && setting.minDelay() != null ? setting.minDelay().toNanos() : 0;
        pausedUntilInstant = setting == null ? null : setting.pausedUntil();
        if (pausedUntilInstant == null || !pausedUntilInstant.isAfter(Instant.now())) {
            pausedUntil = 0;
            pausedUntilInstant = null;
        } else {
            pausedUntil = System.nanoTime() + Duration.between(Instant.now(), pausedUntilInstant).toNanos();
        }
        if (minGapNanos == 0 && (adaptive == null || adaptive.gapNanos() == 0)) {
            nextStart = 0; // a gap an operator took away binds no more
        }
        resize(adaptive == null ? limit : adaptive.allowed(limit), now);
    }

    private void resize(int to, long now) {
        if (to > circulating) {
            permits.release(to - circulating);
        } else if (to < circulating) {
            permits.reduce(circulating - to);
        }
        circulating = to;
        if (to >= limit) {
            heldBackSince = 0;
        } else if (heldBackSince == 0) {
            heldBackSince = now;
        }
    }

    /** The server asked for no request before {@code until}; a later rest already set stays. */
    synchronized void rest(long until) {
        if (restUntil == 0 || until - restUntil > 0) {
            restUntil = until;
        }
    }

    synchronized long restUntil() {
        return restUntil;
    }

    /**
     * Why no request of the key may start for at least {@code nanos} more, with how long is left, or null: an
     * operator's pause, or a rest its server asked for ({@code Retry-After}); whichever ends later.
     */
    synchronized @Nullable String held(long now, long nanos) {
        long pause = pausedUntil != 0 ? pausedUntil - now : 0;
        long rest = restUntil != 0 ? restUntil - now : 0;
        if (pause > 0 && pause >= nanos && pause >= rest) {
            return "paused by an operator, " + seconds(pause) + " more";
        }
        return rest > 0 && rest >= nanos ? "Retry-After: resting " + seconds(rest) + " more" : null;
    }

    /**
     * Why the key, all it is allowed in flight, has been held below its limit by its adaptive politeness for at
     * least {@code nanos}, or null: how many in flight of how many, since when, and what its server showed.
     */
    synchronized @Nullable String heldBack(long now, long nanos) {
        if (adaptive == null || heldBackSince == 0 || now - heldBackSince < nanos || inUse() < circulating) {
            return null;
        }
        return circulating + " of " + limit + " in flight for " + seconds(now - heldBackSince) + ": "
                + adaptive.heldBecause();
    }

    /** A wait in whole seconds, as a person reads it: {@code 45 s}, {@code 4 min 51 s}. */
    private static String seconds(long nanos) {
        long s = (nanos + 999_999_999) / 1_000_000_000;
        return s < 60 ? s + " s" : s / 60 + " min " + s % 60 + " s";
    }

    /** Requests of the key in flight now. */
    synchronized int inUse() {
        return circulating - permits.availablePermits();
    }

    /**
     * Drops the gate if nothing holds it: no request in flight nor waiting, no rest nor pause, unused since
     * {@code idleSince}. Takes every permit first, so that a stale reference can never enter it again.
     */
    synchronized boolean retire(long idleSince, long now) {
        if (dead || !waiting.isEmpty() || closed(now) || lastUsed - idleSince > 0 || !permits.tryAcquire(circulating)) {
            return false;
        }
        dead = true;
        return true;
    }

    synchronized boolean dead() {
        return dead;
    }

    /** What {@code GET /hosts} shows of the key. */
    synchronized KeyView view(long now, int queued) {
        double rate = now - windowStart > RATE_WINDOW_NANOS ? windowStarts * 1e9 / (now - windowStart)
                : Math.max(lastRate, windowStarts * 1e9 / RATE_WINDOW_NANOS);
        long gap = Math.max(minGapNanos, adaptive == null ? 0 : adaptive.gapNanos());
        long rest = restUntil != 0 && restUntil - now > 0 ? restUntil : 0;
        return new KeyView(key, kind.label(), inUse(), queued, limit, circulating, gap / 1_000_000,
                rest == 0 ? null : Instant.now().plusNanos(rest - now), pausedUntilInstant, requests,
                Math.round(rate * 100) / 100.0, adaptive == null ? 0 : Math.round(adaptive.recentMillis() * 10) / 10.0,
                adaptive == null ? 0 : Math.round(adaptive.baselineMillis() * 10) / 10.0,
                lastStart == 0 ? null : Instant.now().minusNanos(now - lastStart));
    }
}
