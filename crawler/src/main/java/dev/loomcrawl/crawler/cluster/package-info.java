/**
 * Nodes that share crawl jobs through one PostgreSQL database. A {@link dev.loomcrawl.crawler.cluster.ClusterNode}
 * wraps a crawler (which does not know it exists): it holds a fair share of the hosts with work, one node a
 * host at a time, and runs its share of each cluster job on the crawler with a frontier whose backend
 * ({@code ClusterBackend}) loads the held hosts' URLs and commits results in batches.
 */
@NullMarked
package dev.loomcrawl.crawler.cluster;

import org.jspecify.annotations.NullMarked;
