/**
 * Which URL of a job goes next: {@link dev.loomcrawl.crawler.frontier.Frontier} hands out
 * {@link dev.loomcrawl.crawler.frontier.Lease}s, hosts taking turns, each URL once at its shortest depth, no
 * host asked more often than its permits, rests and Crawl-delay allow; a lease ends with one outcome. One
 * implementation for one process and a cluster node: where the URLs are kept and results stored is a
 * {@link dev.loomcrawl.crawler.frontier.FrontierBackend}'s ({@link dev.loomcrawl.crawler.frontier.MemoryBackend}
 * here, {@code cluster.ClusterBackend} for a cluster).
 */
@NullMarked
package dev.loomcrawl.crawler.frontier;

import org.jspecify.annotations.NullMarked;
