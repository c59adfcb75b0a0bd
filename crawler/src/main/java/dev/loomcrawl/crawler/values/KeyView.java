package dev.loomcrawl.crawler.values;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One politeness key as {@code GET /hosts} shows it.
 *
 * @param key {@code host:port}, a registered domain, or an address
 * @param level {@code host}, {@code domain} or {@code ip}
 * @param inFlight requests in flight now, every job and {@code /fetch}
 * @param queued URLs of the running jobs waiting for this key
 * @param limit requests in flight allowed: an operator's setting, else the process's default
 * @param allowed what adaptive politeness allows now, at most {@code limit}
 * @param delayMillis the least gap between two requests now
 * @param restingUntil a {@code Retry-After} rest in force until then, or null
 * @param pausedUntil an operator's pause in force until then, or null
 * @param requests requests started under this key since its gate was made
 * @param requestsPerSecond over the last 10 s
 * @param latencyMillis recent latency (0 when not adaptive)
 * @param baselineMillis the key's normal latency (0 when not adaptive)
 * @param lastRequest when the last request started, or null
 */
public record KeyView(String key, String level, int inFlight, int queued, int limit, int allowed, long delayMillis,
        @Nullable Instant restingUntil, @Nullable Instant pausedUntil, long requests, double requestsPerSecond, double latencyMillis,
        double baselineMillis, @Nullable Instant lastRequest) {}
