package dev.loomcrawl.crawler.values;

import java.util.Map;

/**
 * Your code for each fetched HTML page, the way Colly's {@code OnHTML} or a Scrapy callback works: it runs
 * on the page's own task thread (a virtual thread in virtual mode, so it may block), after the page is
 * parsed and before it is stored, and what it returns is stored with the page under {@code fields}.
 *
 * <pre>{@code
 * CrawlJob job = crawler.start(config, page -> Map.of(
 *         "h1", page.document().select("h1").text(),
 *         "prices", page.document().select(".price").eachText()));
 * }</pre>
 *
 * <p>An exception from the handler does not fail the page: the page is stored with the exception named in
 * its {@code detail}. The handler belongs to the process that started the job; a job resumed later runs
 * with the handler given to {@link Crawler#resume(long, PageHandler)}, if any.
 */
@FunctionalInterface
public interface PageHandler {

    /**
     * @return fields to store with the page: strings, numbers, booleans, or lists and maps of them; an empty
     *     map stores nothing. Fields of the job's extraction rules with the same name are replaced.
     */
    Map<String, Object> handle(FetchedPage page) throws Exception;
}
