package dev.loomcrawl.crawler.values;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link Crawler}: the whole process's.
 *
 * @param perHost requests in flight to one {@code host:port} at most, all jobs and one-off fetches
 *     together; a job's own {@code perHostConcurrency} can only be lower (default 8)
 * @param maxInFlight requests in flight across the process at most (default 10,000)
 * @param adaptiveInFlight hold fewer in flight when our own CPU makes responses wait (default true)
 * @param politenessKey what a limit covers for one-off fetches and for jobs that do not say (default host)
 * @param adaptivePoliteness each politeness key's limit and gap follow its server's latency and errors
 *     (default true; see {@code politeness.Adaptive})
 * @param proxy the forward proxy every request goes through, or null: each goes to its server
 * @param tls the certificates https servers may show (default: those the JDK's authorities vouch for)
 */
public record CrawlerOptions(int perHost, int maxInFlight, boolean adaptiveInFlight, PolitenessKey politenessKey,
        boolean adaptivePoliteness, @Nullable ForwardProxy proxy, TlsTrust tls) {
    public static final CrawlerOptions DEFAULTS = new CrawlerOptions(8, 10_000, true);

    public CrawlerOptions(int perHost, int maxInFlight, boolean adaptiveInFlight) {
        this(perHost, maxInFlight, adaptiveInFlight, PolitenessKey.HOST, true, null, TlsTrust.JDK);
    }

    public CrawlerOptions(int perHost, int maxInFlight, boolean adaptiveInFlight, PolitenessKey politenessKey,
            boolean adaptivePoliteness) {
        this(perHost, maxInFlight, adaptiveInFlight, politenessKey, adaptivePoliteness, null, TlsTrust.JDK);
    }

    /** These options with {@code key} as the default politeness key and adaptivity {@code adaptive}. */
    public CrawlerOptions politeness(PolitenessKey key, boolean adaptive) {
        return new CrawlerOptions(perHost, maxInFlight, adaptiveInFlight, key, adaptive, proxy, tls);
    }

    /** These options with every request going through {@code via} (null: none). */
    public CrawlerOptions proxy(@Nullable ForwardProxy via) {
        return new CrawlerOptions(perHost, maxInFlight, adaptiveInFlight, politenessKey, adaptivePoliteness, via, tls);
    }

    /** These options with https servers trusted as {@code trust} says. */
    public CrawlerOptions tls(TlsTrust trust) {
        return new CrawlerOptions(perHost, maxInFlight, adaptiveInFlight, politenessKey, adaptivePoliteness, proxy, trust);
    }

    public CrawlerOptions {
        Objects.requireNonNull(politenessKey, "politenessKey");
        Objects.requireNonNull(tls, "tls");
        if (perHost < 1 || perHost > 10_000) {
            throw new ConfigException("perHost", perHost, "must be between 1 and 10000, was " + perHost);
        }
        if (maxInFlight < 1 || maxInFlight > 1_000_000) {
            throw new ConfigException("maxInFlight", maxInFlight, "must be between 1 and 1000000, was " + maxInFlight);
        }
    }
}
