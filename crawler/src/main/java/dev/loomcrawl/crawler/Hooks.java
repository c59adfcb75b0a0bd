package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.values.PageHandler;
import dev.loomcrawl.crawler.values.StoredListener;
import org.jspecify.annotations.Nullable;

/**
 * Your code in a job: a handler for each fetched page (its result is stored with the page), and a listener told
 * of each stored row. Either may be null.
 */
public record Hooks(@Nullable PageHandler handler, @Nullable StoredListener listener) {
    public static final Hooks NONE = new Hooks(null, null);
}
