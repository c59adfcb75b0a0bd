package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.PolitenessKey;

/** What a request is limited by: its {@code host:port}, and the host's name for its domain and address. */
public record Target(String hostKey, String host) {
    public static Target of(CrawlUrl url) {
        return new Target(url.hostKey(), url.host());
    }

    /**
     * The host's registered domain, looked up when a domain key is asked for: the Public Suffix List takes a
     * tenth of a second to load, on the way to a crawl's first request, and a crawl by host keys never needs it.
     */
    public String domain() {
        return PolitenessKey.domainOf(host);
    }
}
