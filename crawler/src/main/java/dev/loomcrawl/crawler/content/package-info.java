/**
 * A page's main content: the article, post or documentation a reader came for, without menus, headers,
 * footers, side bars, comments, share buttons, cookie notices and related-article lists; as Markdown or
 * plain text, with what the page says of itself (language, description, author, publication date).
 *
 * <p>The method is Mozilla Readability's, on the document the crawl already parsed and without changing it:
 * {@link dev.loomcrawl.crawler.content.ContentScores} scores each block by the paragraphs under it and
 * {@link dev.loomcrawl.crawler.content.Election} picks the best with its siblings of merit, or the document it is a
 * part of ({@link dev.loomcrawl.crawler.content.DocumentParts});
 * {@link dev.loomcrawl.crawler.content.Boilerplate} says what is left out on the way;
 * {@link dev.loomcrawl.crawler.content.MarkdownWriter} writes what is kept;
 * {@link dev.loomcrawl.crawler.content.PageFacts} reads the metadata. {@link
 * dev.loomcrawl.crawler.content.MainContent} is the door. See docs/content.md for why this method and
 * its figures.
 *
 * <p>A page's fingerprints live here too: {@link dev.loomcrawl.crawler.content.Fingerprints} (the body's
 * SHA-256, the visible text's SimHash) and {@link dev.loomcrawl.crawler.content.NearDuplicates}, the index
 * that finds a page whose text nearly matches one seen before.
 */
@NullMarked
package dev.loomcrawl.crawler.content;

import org.jspecify.annotations.NullMarked;
