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
record Reply(long nanos, boolean selfLate, boolean error, int load) {}
