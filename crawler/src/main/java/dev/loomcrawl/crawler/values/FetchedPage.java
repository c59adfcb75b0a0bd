package dev.loomcrawl.crawler.values;

import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;

/**
 * A fetched HTML page as a {@link PageHandler} sees it.
 *
 * @param url the page's URL, as the crawler keeps it ({@link CrawlUrl})
 * @param depth links from the nearest seed, as far as the crawl knows now
 * @param status the HTTP status (2xx)
 * @param headers the response headers, names in lower case
 * @param document the parsed page; resolve a link as the crawler does with
 *     {@code CrawlUrl.check(element.attr("href"), CrawlUrl.of(url).web())} (the page's {@code <base href>} aside)
 */
public record FetchedPage(String url, int depth, int status, Map<String, List<String>> headers, Document document) {}
