package dev.loomcrawl.crawler.frontier;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;

/**
 * Which of a frontier's hosts to try next: hosts with a URL to hand out take turns, round robin, and a host
 * that can only go on at a given time (a rest, a backoff, robots.txt's Crawl-delay) sleeps until then
 * instead of being polled. Both frontiers use it under their own lock; {@code changed} is that lock's
 * condition, signalled whenever a host becomes ready.
 */
final class HostTurns {
    private record Wake(long at, HostQueue host) {}

    private final ArrayDeque<HostQueue> ready = new ArrayDeque<>();
    private final PriorityQueue<Wake> timed = new PriorityQueue<>((a, b) -> Long.compare(a.at - b.at, 0));
    private final Condition changed;

    HostTurns(Condition changed) {
        this.changed = changed;
    }

    /** {@code host} has URLs waiting: it takes its turn (once, however often this is called). */
    void ready(HostQueue host) {
        if (!host.inReady && host.size() > 0) {
            host.inReady = true;
            ready.add(host);
            changed.signalAll();
        }
    }

    /** {@code host} is tried again at {@code at} ({@link System#nanoTime()}), or earlier if already due. */
    void wakeAt(HostQueue host, long at) {
        if (at != 0 && (host.wakeAt == 0 || at - host.wakeAt < 0)) {
            host.wakeAt = at;
            timed.add(new Wake(at, host));
        }
    }

    /** {@code node}, back from a lease, waits in {@code host}'s queue: its turn comes now, or when its backoff ends. */
    void requeue(HostQueue host, Node node, long now) {
        node.state = Node.State.QUEUED;
        host.requeue(node, now);
        if (node.notBefore - now > 0) {
            wakeAt(host, Math.max(node.notBefore, host.nextStart()));
        } else {
            ready(host);
        }
    }

    /** The next host whose turn it is, or null; hosts whose wake time has come join the turns first. */
    HostQueue next(long now) {
        while (!timed.isEmpty() && timed.peek().at - now <= 0) {
            Wake wake = timed.poll();
            if (wake.host.wakeAt == wake.at) { // else a later or earlier wake replaced this one
                wake.host.wakeAt = 0;
                ready(wake.host);
            }
        }
        HostQueue host = ready.poll();
        if (host != null) {
            host.inReady = false;
        }
        return host;
    }

    /** Waits until a host becomes ready, the next wake time, or at most {@code maxNanos} (0: no bound). */
    void await(long now, long maxNanos) throws InterruptedException {
        long wait = timed.isEmpty() ? maxNanos : timed.peek().at - now;
        if (maxNanos > 0 && wait > maxNanos) {
            wait = maxNanos;
        }
        if (wait == 0 && timed.isEmpty()) {
            changed.await();
        } else if (wait > 0) {
            changed.awaitNanos(wait);
        }
    }

    void clear() {
        ready.clear();
        timed.clear();
    }
}
