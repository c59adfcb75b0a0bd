package dev.loomcrawl.crawler;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/** Politeness: one {@link Semaphore} per {@code host:port}, so at most N fetches to a host are in flight. */
final class HostLimiter {
    private final int permitsPerHost;
    private final ConcurrentHashMap<String, Semaphore> semaphores = new ConcurrentHashMap<>();

    HostLimiter(int permitsPerHost) {
        if (permitsPerHost < 1) {
            throw new IllegalArgumentException("permitsPerHost must be at least 1, was " + permitsPerHost);
        }
        this.permitsPerHost = permitsPerHost;
    }

    /** Takes a permit if one is free now; never waits. */
    boolean tryAcquire(String hostKey) {
        return semaphore(hostKey).tryAcquire();
    }

    /** Waits for a permit: cheap on a virtual thread, which unmounts while it waits. */
    void acquire(String hostKey) throws InterruptedException {
        semaphore(hostKey).acquire();
    }

    void release(String hostKey) {
        semaphore(hostKey).release();
    }

    int inUse(String hostKey) {
        Semaphore semaphore = semaphores.get(hostKey);
        return semaphore == null ? 0 : permitsPerHost - semaphore.availablePermits();
    }

    /** The {@code limit} hosts with the most permits taken, busiest first. */
    Map<String, Integer> busiest(int limit) {
        Map<String, Integer> top = new LinkedHashMap<>();
        semaphores.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), permitsPerHost - e.getValue().availablePermits()))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    private Semaphore semaphore(String hostKey) {
        return semaphores.computeIfAbsent(hostKey, key -> new Semaphore(permitsPerHost));
    }
}
