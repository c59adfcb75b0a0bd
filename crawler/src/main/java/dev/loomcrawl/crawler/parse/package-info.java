/**
 * A fetched page into what the crawl keeps: Jsoup parsing on the crawler's parser threads
 * ({@link dev.loomcrawl.crawler.parse.PageParser}), links normalised, scoped and offered to the frontier, and
 * the {@code --extract} fields ({@link dev.loomcrawl.crawler.Harvester},
 * {@link dev.loomcrawl.crawler.parse.LinkScope}, {@link dev.loomcrawl.crawler.parse.Extraction}).
 */
package dev.loomcrawl.crawler.parse;
