package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.CrawlUrl;

/** What is told of each request a fetcher sends, from leaving to its body read: a job's politeness audit. */
public interface RequestAudit {
    /** Told nothing: one-off fetches, which no job audits. */
    RequestAudit NONE = new RequestAudit() {
        @Override public void started(CrawlUrl url) {}
        @Override public void withdrawn(CrawlUrl url) {}
        @Override public void ended(CrawlUrl url, int status, long restNanos) {}
    };

    /** The request is about to leave. */
    void started(CrawlUrl url);

    /** The request never left after all (refused before sending); it is not counted. */
    void withdrawn(CrawlUrl url);

    /** The answer's body is read or cut: the server saw the request in flight until now. */
    void ended(CrawlUrl url, int status, long restNanos);
}
