package dev.loomcrawl.crawler.politeness;

/**
 * What one request tells its key's {@link Gate} about the server.
 *
 * @param nanos the time to the answer (0: no answer)
 * @param selfLate whether this process's own carriers ran late meanwhile: the latency may be ours
 * @param error whether it was 5xx or 429 without a rest to obey, or no answer for trouble of the server's
 * @param load the key's requests awaiting their answer's headers when this one started, itself included (0: not
 *     known): as near as a client can count what the server had in hand when it arrived
 */
record Reply(long nanos, boolean selfLate, boolean error, int load) {
    /** The same answer with its latency divided by {@code factor}: the part of it that is its own server's. */
    Reply over(double factor) {
        return factor <= 1 || nanos == 0 ? this
                : new Reply(Math.max(1, Math.round(nanos / factor)), selfLate, error, load);
    }
}
