/**
 * What a string means as a URL, as browsers read it: the WHATWG URL Standard's basic URL parser for http and
 * https ({@link dev.loomcrawl.crawler.url.WebUrl#parse}), its host parser (IPv4 in every form, IPv6, IDNA by
 * UTS #46: {@link dev.loomcrawl.crawler.url.Hosts}) and its percent-encode sets. It knows nothing of crawling:
 * what the crawler makes of a parsed URL (its canonical form, what it refuses) is
 * {@link dev.loomcrawl.crawler.values.CrawlUrl}'s.
 *
 * <p>Nothing here is null unless it says {@code @Nullable}: a query or fragment that is absent, a link's base.
 */
@NullMarked
package dev.loomcrawl.crawler.url;

import org.jspecify.annotations.NullMarked;
