package dev.loomcrawl.crawler.frontier;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A job's hosts in trouble, as the progress line and the summary say them: those given up (with why) and those
 * whose robots.txt failed and is tried again. Noted by leases under the frontier's lock; read under it.
 */
final class HostTroubles {
    private final ReentrantLock lock;
    private final Set<HostQueue> robotsWaiting = new LinkedHashSet<>();
    private final Map<String, String> givenUp = new LinkedHashMap<>();

    HostTroubles(ReentrantLock lock) {
        this.lock = lock;
    }

    /** The host is given up, if its last exchange gave it up. Under the lock. */
    void noteGivenUp(HostQueue host) {
        if (host.givenUp() != null && !givenUp.containsKey(host.hostKey)) {
            givenUp.put(host.hostKey, host.givenUp().detail());
        }
    }

    /** Whether the host waits for its robots.txt to be tried again. Under the lock. */
    void robotsWaiting(HostQueue host, boolean waiting) {
        if (waiting) {
            robotsWaiting.add(host);
        } else {
            robotsWaiting.remove(host);
        }
    }

    /** Hosts given up so far, with why. */
    Map<String, String> givenUp() {
        lock.lock();
        try {
            return Map.copyOf(givenUp);
        } finally {
            lock.unlock();
        }
    }

    /** Hosts whose robots.txt fails and is tried again, with why; three at most. */
    Map<String, String> robotsRetrying() {
        Map<String, String> why = new TreeMap<>();
        long now = System.nanoTime();
        lock.lock();
        try {
            robotsWaiting.removeIf(host -> host.waiting(now) == null); // given up, or its robots.txt came
            for (HostQueue host : robotsWaiting) {
                if (why.size() == 3) {
                    break;
                }
                why.put(host.hostKey, host.waiting(now));
            }
        } finally {
            lock.unlock();
        }
        return why;
    }
}
