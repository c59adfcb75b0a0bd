package dev.loomcrawl.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.KeyView;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Politeness routes: {@code GET /hosts} (every politeness key: in flight, queued, limit, delay, resting, rate,
 * latency), {@code PUT /hosts/{key}} (a key's limit, minimum delay or pause, for every job at once, stored),
 * and {@code GET /crawl/{id}/politeness} (a job's audit per key).
 */
final class HostHandlers {
    /** What {@code GET /hosts} answers: the keys, and what operators set. */
    record Hosts(List<KeyView> hosts, Map<String, Setting> settings) {}

    /** A key's setting as the API spells it, as {@code PUT /hosts/{key}} takes it. */
    record Setting(@Nullable Integer limit, @Nullable Long minDelayMs, @Nullable Instant pausedUntil) {
        static Setting of(HostSetting s) {
            return new Setting(s.limit(), s.minDelay() == null ? null : s.minDelay().toMillis(), s.pausedUntil());
        }
    }

    /** What {@code GET /crawl/{id}/politeness} answers. */
    record Audit(long jobId, String politenessKey, List<KeyAudit> keys) {}

    private final Crawler crawler;

    HostHandlers(Crawler crawler) {
        this.crawler = crawler;
    }

    void list(Context ctx) {
        int limit = 500;
        String given = ctx.queryParam("limit");
        if (given != null) {
            try {
                limit = Integer.parseInt(given);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > 100_000) {
                throw ApiError.badRequest("limit must be a whole number from 1 to 100000, was '" + given + "'", "limit");
            }
        }
        List<KeyView> keys = crawler.hosts().keys();
        Map<String, Setting> settings = new TreeMap<>();
        crawler.hosts().settings().forEach((key, s) -> settings.put(key, Setting.of(s)));
        ctx.json(new Hosts(keys.subList(0, Math.min(limit, keys.size())), settings));
    }

    void show(Context ctx) {
        try {
            ctx.json(crawler.hosts().key(ctx.pathParam("key")));
        } catch (ConfigException e) {
            throw ApiError.badRequest(e.getMessage(), e.field());
        }
    }

    /**
     * Replaces what is set for one key: {@code limit} (requests in flight), {@code minDelayMs} (least gap
     * between two requests), {@code pausedUntil} (an ISO-8601 instant; no request starts before it). A field
     * left out is back to its default; {@code {}} clears the key.
     */
    void put(Context ctx) {
        JsonNode body = Json.object(ctx);
        Integer limit = null;
        Duration minDelay = null;
        Instant pausedUntil = null;
        Iterator<Map.Entry<String, JsonNode>> fields = body.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            JsonNode v = f.getValue();
            switch (f.getKey()) {
                case "limit" -> limit = v.isNull() ? null : whole(f.getKey(), v, 1, 10_000);
                case "minDelayMs" -> minDelay = v.isNull() ? null : Duration.ofMillis(whole(f.getKey(), v, 0, 3_600_000));
                case "pausedUntil" -> pausedUntil = v.isNull() ? null : instant(f.getKey(), v);
                default -> throw ApiError.badRequest("unknown field '" + f.getKey()
                        + "'; a key takes limit, minDelayMs and pausedUntil", f.getKey());
            }
        }
        try {
            ctx.json(crawler.hosts().set(ctx.pathParam("key"), new HostSetting(limit, minDelay, pausedUntil)));
        } catch (ConfigException e) {
            throw ApiError.badRequest(e.getMessage(), e.field());
        }
    }

    void audit(Context ctx) {
        long jobId;
        try {
            jobId = Long.parseLong(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            throw ApiError.notFound("no job '" + ctx.pathParam("id") + "'");
        }
        JobRow job = crawler.database().job(jobId).orElseThrow(() -> ApiError.notFound("no job " + jobId));
        String key = ConfigCodec.fromJson(job.config()).politeness().politenessKey().label();
        ctx.json(new Audit(jobId, key, crawler.hosts().audit(jobId).orElse(List.of())));
    }

    private static int whole(String field, JsonNode v, int min, int max) {
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < min || v.asInt() > max) {
            throw ApiError.badRequest(field + " must be a whole number from " + min + " to " + max + ", was " + v, field);
        }
        return v.asInt();
    }

    private static Instant instant(String field, JsonNode v) {
        try {
            return Instant.parse(v.asText());
        } catch (DateTimeParseException e) {
            throw ApiError.badRequest(field + " must be an ISO-8601 instant such as 2026-11-27T12:00:00Z, was " + v, field);
        }
    }
}
