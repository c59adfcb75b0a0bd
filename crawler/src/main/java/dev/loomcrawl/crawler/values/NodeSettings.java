package dev.loomcrawl.crawler.values;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How this node joins.
 *
 * @param nodeId its name, unique in the cluster: letters, digits, {@code . _ : -}, up to 64
 * @param address where its API listens, shown by {@code GET /cluster}; may be null
 * @param leaseTtl how long a host lease lasts unless renewed: how soon a dead node's hosts move on
 *     (default 30 s); a cluster job's fetch deadline must fit in it with room for two heartbeats
 * @param warcDir where this node keeps its parts of the cluster jobs' WARC files ({@code serve --warc-dir}), an
 *     absolute path; null: it keeps none
 */
public record NodeSettings(String nodeId, @Nullable String address, Duration leaseTtl, @Nullable Path warcDir) {
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    /** Time kept in hand beyond a fetch's deadline before a request may start under a lease. */
    public static final Duration SAFETY = Duration.ofSeconds(1);
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    public NodeSettings {
        if (nodeId == null || !NODE_ID.matcher(nodeId).matches()) {
            throw new ConfigException("nodeId", nodeId,
                    "must be 1 to 64 letters, digits or . _ : -, was '" + nodeId + "'");
        }
        if (leaseTtl == null || leaseTtl.compareTo(Duration.ofSeconds(2)) < 0 || leaseTtl.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new ConfigException("leaseTtl", leaseTtl, "must be between 2 s and 10 min, was " + leaseTtl);
        }
    }

    public NodeSettings(String nodeId, @Nullable String address, Duration leaseTtl) {
        this(nodeId, address, leaseTtl, null);
    }

    /**
     * Where this node keeps its part of a cluster job's WARC file {@code name}: the pages it fetched, in its own
     * directory, the name followed by its id, so that parts from many nodes can be put side by side. Null when
     * this node keeps none.
     */
    public @Nullable Path warcPart(String name) {
        if (warcDir == null) {
            return null;
        }
        String file = String.valueOf(Path.of(name).getFileName());
        String base = file.endsWith(".warc.gz") ? file.substring(0, file.length() - ".warc.gz".length()) : file;
        return warcDir.resolve(base + "-" + fileId() + ".warc.gz");
    }

    /** The node's id as part of a file name: its colons as dashes. */
    public String fileId() {
        return nodeId.replace(':', '-');
    }

    /** How often the node renews, balances and looks for jobs: a sixth of the lease, at most half a second. */
    public Duration heartbeat() {
        return leaseTtl.dividedBy(6).compareTo(Duration.ofMillis(500)) < 0 ? leaseTtl.dividedBy(6) : Duration.ofMillis(500);
    }

    /** A cluster job's fetch deadline unless it sets one: the usual 30 s, or less if the lease is short. */
    public Duration defaultFetchDeadline() {
        Duration usual = Duration.ofSeconds(30);
        return usual.compareTo(maxFetchDeadline()) < 0 ? usual : maxFetchDeadline();
    }

    /** The longest fetch deadline a cluster job may have: the lease must outlast a fetch started on it. */
    public Duration maxFetchDeadline() {
        return leaseTtl.minus(SAFETY).minus(heartbeat().multipliedBy(2));
    }
}
