/**
 * The command line ({@link dev.loomcrawl.cli.Main}): crawl, resume, jobs, export and serve. A type without
 * {@code @Nullable} never holds null (checked by NullAway when the module compiles).
 */
@NullMarked
package dev.loomcrawl.cli;

import org.jspecify.annotations.NullMarked;
