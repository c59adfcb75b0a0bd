package dev.loomcrawl.crawler.values;

import org.jspecify.annotations.Nullable;

/** The database could not be opened or written; the message is one line for people. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
