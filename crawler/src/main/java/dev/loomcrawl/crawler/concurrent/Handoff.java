package dev.loomcrawl.crawler.concurrent;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Work handed to a thread of its own and waited for without giving up: the caller may be interrupted (a
 * cancelled job's thread), and what it handed over runs to its end all the same, on a thread no interrupt
 * reaches. The interrupt is kept for the caller to see when this returns.
 */
public final class Handoff {
    private Handoff() {}

    /** {@code work}'s result, waiting through interrupts; its unchecked failure thrown as it was. */
    public static <T> T await(Future<T> work) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return work.get();
                } catch (InterruptedException e) {
                    interrupted = true; // given back below
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
