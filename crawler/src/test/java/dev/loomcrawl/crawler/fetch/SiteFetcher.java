package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.TlsTrust;
import dev.loomcrawl.testkit.TestSite;
import java.util.function.BooleanSupplier;

/** A fetcher with a job's defaults, the site it fetches from, and its deadlines: closed together. */
final class SiteFetcher implements AutoCloseable {
    final TestSite site;
    final Fetcher fetcher;
    private final Deadlines deadlines = new Deadlines();

    SiteFetcher(TestSite site) {
        this.site = site;
        CrawlConfig config = CrawlConfig.builder().seed(site.url("/")).build();
        fetcher = new Fetcher(FetchSettings.of(config, null, TlsTrust.JDK), HostNames.JVM, deadlines);
    }

    /** Any URL, as a page. */
    FetchResult fetch(String url) throws InterruptedException {
        return fetcher.fetch(CrawlUrl.of(url), Fetcher.Purpose.PAGE);
    }

    /** A page of the site, the request sent when {@code mayStart} says yes as it is about to leave. */
    FetchResult page(String path, BooleanSupplier mayStart) throws InterruptedException, Fetcher.NotSent {
        return fetcher.fetch(CrawlUrl.of(site.url(path)), Fetcher.Purpose.PAGE, null, mayStart);
    }

    @Override
    public void close() {
        fetcher.close();
        deadlines.close();
        site.close();
    }
}
