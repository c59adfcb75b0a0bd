package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.ForwardProxy;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a job fetches: its timeouts, limits, identity and what it keeps.
 *
 * @param headers sent with every request, after ours (a job's {@code User-Agent} lives in {@code userAgent})
 * @param acceptTypes media types kept besides HTML ({@code application/pdf}, {@code image/*})
 * @param keepRaw keep each body as received, for a WARC file
 * @param cookies keep the cookies servers set and send them back ({@code CrawlConfig.Fetch#cookies})
 * @param proxy the process's forward proxy, or null
 * @param tls the certificates the process's https servers may show
 */
public record FetchSettings(Duration connectTimeout, Duration requestTimeout, Duration fetchDeadline, int maxBodyBytes,
        String userAgent, Map<String, String> headers, boolean refusePrivateAddresses, Set<String> acceptTypes,
        boolean keepRaw, boolean cookies, @Nullable ForwardProxy proxy, TlsTrust tls) {

    /** How a job of {@code c} fetches, through {@code proxy} (null: none), trusting {@code tls}. */
    public static FetchSettings of(CrawlConfig c, @Nullable ForwardProxy proxy, TlsTrust tls) {
        CrawlConfig.Fetch f = c.fetch();
        return new FetchSettings(f.connectTimeout(), f.requestTimeout(), f.fetchDeadline(), f.maxBodyBytes(),
                f.userAgent(), f.headers(), f.refusePrivateAddresses(), c.scope().acceptTypes(),
                c.output().warcFile() != null, f.cookies(), proxy, tls);
    }
}
