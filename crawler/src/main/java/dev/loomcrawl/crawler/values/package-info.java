/**
 * The values the engine's API speaks in: a crawl's configuration, its URLs, the rows it stores and the figures
 * it reports. Below every other package: a value knows nothing of the machinery that makes it.
 */
@NullMarked
package dev.loomcrawl.crawler.values;

import org.jspecify.annotations.NullMarked;
