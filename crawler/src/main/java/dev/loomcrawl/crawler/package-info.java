/**
 * The crawl engine's front door, and the only part of it a service needs: {@link dev.loomcrawl.crawler.Crawler}
 * (start, resume, suspend and cancel jobs; one-off fetches; the process's figures), a job's handle
 * {@link dev.loomcrawl.crawler.CrawlJob} and the life of one URL in it ({@code UrlTask.crawl}),
 * {@link dev.loomcrawl.crawler.Jobs} (what a crawler and a cluster node have in common),
 * {@link dev.loomcrawl.crawler.values.CrawlConfig} with its JSON ({@link dev.loomcrawl.crawler.values.ConfigCodec}), the
 * reports and summaries, and the values every package shares ({@link dev.loomcrawl.crawler.values.CrawlUrl},
 * {@link dev.loomcrawl.crawler.values.FailureKind}, {@link dev.loomcrawl.crawler.values.ExecutionMode}).
 *
 * <p>The engine is laid out by concept, one package each: {@code frontier} (which URL goes next),
 * {@code politeness} (per-host permits, robots.txt, retries and rests), {@code fetch} (the HTTP exchange and
 * its deadlines), {@code parse} (pages into links and fields), {@code store} (H2 and PostgreSQL), and
 * {@code cluster} (nodes sharing jobs through PostgreSQL, wrapped around a crawler). Their public types are
 * public for each other, not for users: a service uses this package, the row records of {@code store} and
 * {@code cluster.ClusterNode}.
 */
@NullMarked
package dev.loomcrawl.crawler;

import org.jspecify.annotations.NullMarked;
