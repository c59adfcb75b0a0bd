/**
 * How the engine hands work to a thread of its own and waits for it through interrupts ({@link
 * dev.loomcrawl.crawler.concurrent.Handoff}): a page's parse, a store's write, a cluster commit. Imports
 * nothing of the crawler's.
 */
@NullMarked
package dev.loomcrawl.crawler.concurrent;

import org.jspecify.annotations.NullMarked;
