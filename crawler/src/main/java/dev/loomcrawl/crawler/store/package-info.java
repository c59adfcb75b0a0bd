/**
 * Where results live: {@link dev.loomcrawl.crawler.store.PageStore} over H2 (the default) or PostgreSQL, its
 * one writer thread ({@code GroupWriter}), pooled reads, the schema and its migrations, exports, and the
 * cluster's shared frontier ({@link dev.loomcrawl.crawler.cluster.ClusterStore}, results committed in batches
 * by {@code ClusterCommits}). The row records ({@link dev.loomcrawl.crawler.values.PageRecord},
 * {@link dev.loomcrawl.crawler.values.JobRow}, {@link dev.loomcrawl.crawler.values.Outcome}) are part of the API.
 */
@NullMarked
package dev.loomcrawl.crawler.store;

import org.jspecify.annotations.NullMarked;
