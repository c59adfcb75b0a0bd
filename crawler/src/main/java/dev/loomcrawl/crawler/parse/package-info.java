/**
 * A fetched page read: Jsoup parsing on the crawler's parser threads ({@link dev.loomcrawl.crawler.parse.PageParser}),
 * its links as a browser resolves them, their scope ({@link dev.loomcrawl.crawler.parse.LinkScope}), the
 * {@code --extract} fields ({@link dev.loomcrawl.crawler.parse.Extraction}) and its fingerprints. The engine's
 * harvest turns them into the row to store and the links to follow.
 */
@NullMarked
package dev.loomcrawl.crawler.parse;

import org.jspecify.annotations.NullMarked;
