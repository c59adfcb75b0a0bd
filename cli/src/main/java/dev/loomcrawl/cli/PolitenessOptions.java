package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.PolitenessKey;
import picocli.CommandLine.Option;

/** What a politeness limit covers, and whether it adapts: shared by {@code crawl} and {@code serve} (a picocli mixin). */
final class PolitenessOptions {
    @Option(names = "--politeness-key", paramLabel = "host|domain|ip", defaultValue = "host",
            description = "What --per-host limits: each host name (default), each registered domain (all of"
                    + " *.example.co.uk share one limit), or each IP address (names on one address share one limit).")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String key;
    @Option(names = "--adaptive-politeness", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "A host starts at 4 in flight and reaches --per-host with its first healthy answer; a"
                    + " server whose answers slow under load, or that keeps answering errors, gets fewer requests in"
                    + " flight until its answers are healthy again; a Retry-After rests the host as long as it asks"
                    + " (default: on; --no-adaptive-politeness holds --per-host fixed).")
    boolean adaptive;

    /** @throws dev.loomcrawl.crawler.values.ConfigException naming {@code politenessKey} when the key is none of the three */
    PolitenessKey key() {
        return PolitenessKey.parse("politenessKey", key);
    }

    CrawlerOptions on(CrawlerOptions options) {
        return options.politeness(key(), adaptive);
    }
}
