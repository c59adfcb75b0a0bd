/**
 * What the crawl owes the servers it asks: one {@link java.util.concurrent.Semaphore} per host for the whole
 * process and its rest after a {@code Retry-After} ({@link dev.loomcrawl.crawler.politeness.HostGates}),
 * robots.txt and its Crawl-delay ({@link dev.loomcrawl.crawler.politeness.Robots},
 * {@link dev.loomcrawl.crawler.politeness.RobotsFetch}), and what a failure means: retry the URL later, rest
 * the host, give it up ({@link dev.loomcrawl.crawler.fetch.RetryPolicy}).
 */
@NullMarked
package dev.loomcrawl.crawler.politeness;

import org.jspecify.annotations.NullMarked;
