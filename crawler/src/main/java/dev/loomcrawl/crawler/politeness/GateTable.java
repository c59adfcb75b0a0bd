package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyView;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The process's gates by key, and what operators set for keys. A gate is made on first use, with its key's
 * setting; gates unused for {@link #IDLE_NANOS} are dropped, so a crawl of a million hosts keeps gates only for
 * those busy lately. A setting is kept apart and outlives its gate.
 */
final class GateTable {
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long SWEEP_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final int defaultLimit;
    private final boolean adaptive;
    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, HostSetting> settings = new ConcurrentHashMap<>();
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());

    GateTable(int defaultLimit, boolean adaptive) {
        this.defaultLimit = defaultLimit;
        this.adaptive = adaptive;
    }

    int defaultLimit() {
        return defaultLimit;
    }

    /** The gate of {@code key}, made now if it has none. */
    Gate gate(String key, PolitenessKey kind) {
        return gates.computeIfAbsent(key, k -> new Gate(k, kind, settings.get(k), defaultLimit, adaptive, System.nanoTime()));
    }

    /** The gate of {@code key} if it has one now, else null. */
    @Nullable Gate find(String key) {
        Gate g = gates.get(key);
        return g == null || g.dead() ? null : g;
    }

    /** Drops gates idle for {@link #IDLE_NANOS}; at most once per {@link #SWEEP_NANOS}, by whoever calls first. */
    void sweep(long now) {
        long last = lastSweep.get();
        if (now - last >= SWEEP_NANOS && lastSweep.compareAndSet(last, now)) {
            gates.values().removeIf(g -> g.retire(now - IDLE_NANOS, now));
        }
    }

    /** The {@code limit} keys with the most requests in flight, busiest first. */
    Map<String, Integer> busiest(int limit) {
        Map<String, Integer> top = new LinkedHashMap<>();
        List<Map.Entry<String, Integer>> busy = new ArrayList<>();
        for (Gate g : gates.values()) {
            int n = g.inUse();
            if (n > 0) {
                busy.add(Map.entry(g.key, n));
            }
        }
        busy.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()));
        busy.stream().limit(limit).forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** Sets what an operator asked of {@code key} (an empty setting: back to the defaults), on its gate at once. */
    void set(String key, HostSetting setting) {
        if (setting.empty()) {
            settings.remove(key);
        } else {
            settings.put(key, setting);
        }
        gate(key, PolitenessKey.kindOf(key)).apply(setting.empty() ? null : setting, defaultLimit, System.nanoTime());
    }

    Map<String, HostSetting> settings() {
        return new TreeMap<>(settings);
    }

    /** Every gate (and every key with a setting) as {@code GET /hosts} shows it, busiest first. */
    List<KeyView> views(Map<String, Integer> queuedByKey, long now) {
        for (String key : settings.keySet()) {
            gate(key, PolitenessKey.kindOf(key));
        }
        List<KeyView> views = new ArrayList<>();
        for (Gate g : gates.values()) {
            views.add(g.view(now, queuedByKey.getOrDefault(g.key, 0)));
        }
        views.sort(Comparator.comparingInt(KeyView::inFlight).thenComparingInt(KeyView::queued).reversed()
                .thenComparing(KeyView::key));
        return views;
    }
}
