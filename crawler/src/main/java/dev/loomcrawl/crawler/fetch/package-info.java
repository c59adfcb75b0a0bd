/**
 * The HTTP exchange: {@link dev.loomcrawl.crawler.fetch.Fetcher} (a plain blocking
 * {@code HttpClient.send}, the private-address guard, caps and body decoding; a failure's kind from its
 * exception's types), the header timeout and whole-fetch deadline of every fetch in flight
 * ({@link dev.loomcrawl.crawler.fetch.Deadlines}), requests in flight across hosts
 * ({@link dev.loomcrawl.crawler.fetch.FetchLimit}), sitemaps, and the WARC file.
 */
@NullMarked
package dev.loomcrawl.crawler.fetch;

import org.jspecify.annotations.NullMarked;
