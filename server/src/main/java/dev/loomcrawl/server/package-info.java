/**
 * The HTTP API over the engine ({@link dev.loomcrawl.server.ApiServer}), its dashboard and its metrics. A type
 * without {@code @Nullable} never holds null (checked by NullAway when the module compiles).
 */
@NullMarked
package dev.loomcrawl.server;

import org.jspecify.annotations.NullMarked;
