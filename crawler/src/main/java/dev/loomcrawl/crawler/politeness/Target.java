package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.PolitenessKey;

/** What a request is limited by: its {@code host:port}, and the host's name for its domain and address. */
public record Target(String hostKey, String host, String domain) {
    public static Target of(CrawlUrl url) {
        return new Target(url.hostKey(), url.host(), PolitenessKey.domainOf(url.host()));
    }
}
