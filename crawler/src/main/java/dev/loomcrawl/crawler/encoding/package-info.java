/**
 * How a page's bytes become text, as browsers decide: the WHATWG Encoding Standard's labels
 * ({@link dev.loomcrawl.crawler.encoding.Encodings}), the HTML Standard's prescan of a page's first bytes for
 * its {@code <meta charset>} and the order in which a byte-order mark, the {@code Content-Type} header, that
 * prescan and a guess decide ({@link dev.loomcrawl.crawler.encoding.PageEncoding}). It knows nothing of
 * crawling.
 */
@NullMarked
package dev.loomcrawl.crawler.encoding;

import org.jspecify.annotations.NullMarked;
