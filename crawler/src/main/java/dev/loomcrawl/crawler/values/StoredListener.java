package dev.loomcrawl.crawler.values;

/**
 * Told of every row a job stores, on the task's thread, right after the store has it (committed a moment
 * later): for output written as a crawl goes ({@code crawl --output}) and live progress. Keep it quick.
 */
@FunctionalInterface
public interface StoredListener {
    void stored(PageRecord row);
}
