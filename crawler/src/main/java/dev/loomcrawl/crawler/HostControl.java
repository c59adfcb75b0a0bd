package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.KeySyntax;
import dev.loomcrawl.crawler.politeness.Target;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.KeyView;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Politeness you can steer and prove, for the whole process: every politeness key with what it has in flight
 * and waiting, an operator's setting for one key (stored, and in force at once for every job), and a job's
 * politeness audit. What {@code GET /hosts}, {@code PUT /hosts/{key}} and {@code GET /crawl/{id}/politeness}
 * serve.
 */
public final class HostControl {
    private final HostGates gates;
    private final PageStore store;
    private final Supplier<? extends Iterable<CrawlJob>> running;

    HostControl(HostGates gates, PageStore store, Supplier<? extends Iterable<CrawlJob>> running) {
        this.gates = gates;
        this.store = store;
        this.running = running;
    }

    /**
     * Brings this process's settings in line with the database's: the crawler calls this as it opens (what an
     * earlier process set is in force again), and each node of a cluster every heartbeat, so a key set through
     * any node binds every node within one beat.
     */
    public void reload() {
        Map<String, HostSetting> stored = store.politeness().settings();
        Map<String, HostSetting> here = gates.settings();
        stored.forEach((key, setting) -> {
            if (!setting.equals(here.get(key))) {
                gates.set(key, setting);
            }
        });
        here.keySet().stream().filter(key -> !stored.containsKey(key))
                .forEach(key -> gates.set(key, new HostSetting(null, null, null)));
    }

    /** Every key with a gate, a setting or URLs queued, busiest first. */
    public List<KeyView> keys() {
        return gates.keys(queued());
    }

    /**
     * One key, as {@link #keys} shows it.
     *
     * @param given spelled as {@link #set} takes it
     * @throws ConfigException naming {@code key} when no request could ever count under it
     */
    public KeyView key(String given) {
        return gates.key(KeySyntax.canonical(given), queued());
    }

    /** What operators set, by key. */
    public Map<String, HostSetting> settings() {
        return gates.settings();
    }

    /**
     * Sets {@code setting} for {@code key} (an empty one: back to the defaults): stored first, so that a
     * restart keeps it, then in force for every job before this returns.
     *
     * @param given a {@code host:port}, a registered domain or an address, in any case; kept as
     *     {@link KeySyntax#canonical} spells it
     * @throws ConfigException naming {@code key} when no request could ever count under it
     */
    public KeyView set(String given, HostSetting setting) {
        String key = KeySyntax.canonical(given);
        store.politeness().set(key, setting);
        gates.set(key, setting);
        return gates.key(key, queued());
    }

    /**
     * Job {@code jobId}'s politeness audit: live while it runs here alone; a cluster job's shares as stored, this
     * node's brought up to date first; else as stored. Empty for no such job.
     */
    public Optional<List<KeyAudit>> audit(long jobId) {
        for (CrawlJob job : running.get()) {
            if (job.id() == jobId) {
                if (!job.cluster()) {
                    return Optional.of(job.politeness());
                }
                job.checkpoint();
            }
        }
        return store.jobs().find(jobId).map(row -> store.politeness().audit(jobId));
    }

    private Map<Target, Integer> queued() {
        Map<Target, Integer> all = new HashMap<>();
        for (CrawlJob job : running.get()) {
            job.queuedByHost().forEach((target, n) -> all.merge(target, n, Integer::sum));
        }
        return all;
    }
}
