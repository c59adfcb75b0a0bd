package dev.loomcrawl.crawler.values;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A {@link CrawlConfig} as JSON and back: how a job's whole configuration is stored with it, and the
 * vocabulary of {@code POST /crawl}. Durations are whole milliseconds under a {@code Ms} name. Reading is
 * strict about types ({@code "maxDepth": "3"} and {@code null} are errors, as is a number for a URL), and
 * every error is a {@link ConfigException} naming the JSON field.
 */
public final class ConfigCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** JSON names that differ from the config's component names. */
    private static final Map<String, String> JSON_NAMES = Map.of(
            "connectTimeout", "connectTimeoutMs",
            "requestTimeout", "requestTimeoutMs",
            "fetchDeadline", "fetchDeadlineMs",
            "hostDelay", "hostDelayMs",
            "robotsRetryFor", "robotsRetryForMs",
            "warcFile", "warc");

    private ConfigCodec() {}

    /** The JSON name of a config field ({@code requestTimeout} is {@code requestTimeoutMs}). */
    public static String jsonName(String field) {
        int cut = indexOfSub(field);
        String base = cut < 0 ? field : field.substring(0, cut);
        return JSON_NAMES.getOrDefault(base, base) + (cut < 0 ? "" : field.substring(cut));
    }

    private static int indexOfSub(String field) {
        int dot = field.indexOf('.');
        int bracket = field.indexOf('[');
        return dot < 0 ? bracket : bracket < 0 ? dot : Math.min(dot, bracket);
    }

    public static String toJson(CrawlConfig c) {
        ObjectNode o = JSON.createObjectNode();
        ArrayNode seeds = o.putArray("seeds");
        c.scope().seeds().forEach(s -> seeds.add(s.url()));
        o.put("maxDepth", c.scope().maxDepth());
        o.put("maxPages", c.scope().maxPages());
        o.put("perHostConcurrency", c.politeness().perHostConcurrency());
        o.put("maxInFlight", c.execution().maxInFlight());
        o.put("connectTimeoutMs", c.fetch().connectTimeout().toMillis());
        o.put("requestTimeoutMs", c.fetch().requestTimeout().toMillis());
        o.put("fetchDeadlineMs", c.fetch().fetchDeadline().toMillis());
        o.put("maxRetries", c.politeness().maxRetries());
        o.put("hostDelayMs", c.politeness().hostDelay().toMillis());
        o.put("politenessKey", c.politeness().politenessKey().label());
        o.put("hostFailureLimit", c.politeness().hostFailureLimit());
        o.put("refusePrivateAddresses", c.fetch().refusePrivateAddresses());
        o.put("maxBodyBytes", c.fetch().maxBodyBytes());
        o.put("maxRedirects", c.fetch().maxRedirects());
        o.put("userAgent", c.fetch().userAgent());
        o.set("headers", JSON.valueToTree(c.fetch().headers()));
        o.set("allowedHosts", JSON.valueToTree(c.scope().allowedHosts()));
        o.set("allowedDomains", JSON.valueToTree(c.scope().allowedDomains()));
        o.set("denyPatterns", JSON.valueToTree(c.scope().denyPatterns()));
        o.put("respectRobots", c.politeness().respectRobots());
        o.put("robotsRetryForMs", c.politeness().robotsRetryFor().toMillis());
        o.put("sitemaps", c.scope().sitemaps());
        o.put("ignoreNofollow", c.scope().ignoreNofollow());
        o.set("acceptTypes", JSON.valueToTree(c.scope().acceptTypes()));
        o.set("extract", JSON.valueToTree(c.output().extract()));
        o.set("extractAll", JSON.valueToTree(c.output().extractAll()));
        o.put("storeBody", c.output().storeBody());
        o.put("content", c.output().content().label());
        o.put("contentMaxChars", c.output().contentMaxChars());
        if (c.output().warcFile() != null) {
            o.put("warc", c.output().warcFile());
        }
        o.put("mode", c.execution().mode().label());
        o.put("poolSize", c.execution().poolSize());
        Freshness f = c.freshness();
        if (f.revisit() != null) {
            o.putObject("revisit").put("min", f.revisit().min().toString()).put("max", f.revisit().max().toString());
        }
        o.put("skipNearDuplicates", f.skipNearDuplicates());
        if (f.webhook() != null) {
            o.putObject("webhook").put("url", f.webhook().url()).put("secret", f.webhook().secret());
        }
        return o.toString();
    }

    /** A stored config; fields a newer version added and this one lacks take their defaults. */
    public static CrawlConfig fromJson(String json) {
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw new ConfigException("config", json, "is not a JSON object");
            }
            return read(node, CrawlConfig.builder(), Set.of());
        } catch (JsonProcessingException e) {
            throw new ConfigException("config", json, "is not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Reads {@code json} onto {@code defaults}: every field present replaces the default.
     *
     * @param refused field names not accepted from this caller (an API client may not choose server files)
     * @throws ConfigException naming the JSON field: unknown, refused, of the wrong type, or out of range
     */
    public static CrawlConfig read(JsonNode json, CrawlConfigBuilder defaults, Set<String> refused) {
        CrawlConfigBuilder b = defaults;
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode v = field.getValue();
            if (refused.contains(name)) {
                throw new ConfigException(name, null, "cannot be set here");
            }
            switch (name) {
                case "seeds" -> {
                    requireArray(name, v);
                    for (int i = 0; i < v.size(); i++) {
                        b.seed(text(name + "[" + i + "]", v.get(i)));
                    }
                }
                case "maxDepth" -> b.maxDepth(integer(name, v));
                case "maxPages" -> b.maxPages(integer(name, v));
                case "perHostConcurrency" -> b.perHostConcurrency(integer(name, v));
                case "maxInFlight" -> b.maxInFlight(integer(name, v));
                case "connectTimeoutMs" -> b.connectTimeout(millis(name, v));
                case "requestTimeoutMs" -> b.requestTimeout(millis(name, v));
                case "fetchDeadlineMs" -> b.fetchDeadline(millis(name, v));
                case "maxRetries" -> b.maxRetries(integer(name, v));
                case "hostDelayMs" -> b.hostDelay(millis(name, v));
                case "politenessKey" -> b.politenessKey(PolitenessKey.parse(name, text(name, v)));
                case "hostFailureLimit" -> b.hostFailureLimit(integer(name, v));
                case "refusePrivateAddresses" -> b.refusePrivateAddresses(bool(name, v));
                case "maxBodyBytes" -> b.maxBodyBytes(integer(name, v));
                case "maxRedirects" -> b.maxRedirects(integer(name, v));
                case "userAgent" -> b.userAgent(text(name, v));
                case "headers" -> strings(name, v, b::header);
                case "allowedHosts" -> each(name, v, b::allowHost);
                case "allowedDomains" -> each(name, v, b::allowDomain);
                case "denyPatterns" -> each(name, v, b::denyPattern);
                case "respectRobots" -> b.respectRobots(bool(name, v));
                case "robotsRetryForMs" -> b.robotsRetryFor(millis(name, v));
                case "sitemaps" -> b.sitemaps(bool(name, v));
                case "ignoreNofollow" -> b.ignoreNofollow(bool(name, v));
                case "acceptTypes" -> each(name, v, b::acceptType);
                case "extract" -> strings(name, v, b::extract);
                case "extractAll" -> strings(name, v, b::extractAll);
                case "storeBody" -> b.storeBody(bool(name, v));
                case "content" -> b.content(contentFormat(name, v));
                case "contentMaxChars" -> b.contentMaxChars(integer(name, v));
                case "warc" -> b.warcFile(v.isNull() ? null : text(name, v));
                case "mode" -> b.mode(ExecutionMode.parse(text(name, v)));
                case "poolSize" -> b.poolSize(integer(name, v));
                case "revisit" -> b.revisit(v.isNull() ? null : revisit(name, v));
                case "skipNearDuplicates" -> b.skipNearDuplicates(bool(name, v));
                case "webhook" -> b.webhook(v.isNull() ? null : webhook(name, v));
                default -> throw new ConfigException(name, null, "is not a known field");
            }
        }
        try {
            return b.build();
        } catch (ConfigException e) {
            throw new ConfigException(jsonName(e.field()), e.value(), e.problem());
        }
    }

    /** {@code {"min": "PT1M", "max": "P7D"}}: ISO-8601 durations, either one may be left out. */
    private static Freshness.Revisit revisit(String name, JsonNode v) {
        Map<String, JsonNode> parts = object(name, v, Set.of("min", "max"), Set.of());
        Duration min = parts.get("min") == null ? null : isoDuration(name + ".min", parts.get("min"));
        Duration max = parts.get("max") == null ? null : isoDuration(name + ".max", parts.get("max"));
        return Freshness.Revisit.of(min, max);
    }

    /** {@code {"url": "https://...", "secret": "..."}}. */
    private static Freshness.Webhook webhook(String name, JsonNode v) {
        Map<String, JsonNode> parts = object(name, v, Set.of("url", "secret"), Set.of("url", "secret"));
        return new Freshness.Webhook(text(name + ".url", parts.get("url")), text(name + ".secret", parts.get("secret")));
    }

    /** The fields of an object holding only {@code names}, each of {@code required} present. */
    private static Map<String, JsonNode> object(String name, JsonNode v, Set<String> names, Set<String> required) {
        if (!v.isObject()) {
            throw new ConfigException(name, v, "must be an object with " + String.join(" and ", new java.util.TreeSet<>(names)));
        }
        Map<String, JsonNode> parts = new java.util.HashMap<>();
        v.fields().forEachRemaining(e -> {
            if (!names.contains(e.getKey())) {
                throw new ConfigException(name + "." + e.getKey(), null, "is not a known field");
            }
            parts.put(e.getKey(), e.getValue());
        });
        for (String part : required) {
            if (!parts.containsKey(part)) {
                throw new ConfigException(name + "." + part, null, "must be given");
            }
        }
        return parts;
    }

    private static Duration isoDuration(String name, JsonNode v) {
        String text = text(name, v);
        try {
            return Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new ConfigException(name, text, "must be an ISO-8601 duration such as PT30S, PT1M or P7D, was '" + text + "'");
        }
    }

    private static void requireArray(String name, JsonNode v) {
        if (!v.isArray()) {
            throw new ConfigException(name, v, "must be an array");
        }
    }

    private static String text(String name, JsonNode v) {
        if (!v.isTextual()) {
            throw new ConfigException(name, v, "must be a string");
        }
        return v.textValue();
    }

    private static ContentFormat contentFormat(String name, JsonNode v) {
        try {
            return ContentFormat.parse(text(name, v));
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, v.textValue(), e.getMessage());
        }
    }

    private static int integer(String name, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ConfigException(name, v, "must be a whole number" + (v.isNumber() ? " in range, was " + v : ""));
        }
        return v.intValue();
    }

    private static Duration millis(String name, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ConfigException(name, v, "must be a whole number of milliseconds");
        }
        return Duration.ofMillis(v.longValue());
    }

    private static boolean bool(String name, JsonNode v) {
        if (!v.isBoolean()) {
            throw new ConfigException(name, v, "must be true or false");
        }
        return v.booleanValue();
    }

    private static void each(String name, JsonNode v, Consumer<String> add) {
        requireArray(name, v);
        for (int i = 0; i < v.size(); i++) {
            add.accept(text(name + "[" + i + "]", v.get(i)));
        }
    }

    private static void strings(String name, JsonNode v, BiConsumer<String, String> put) {
        if (!v.isObject()) {
            throw new ConfigException(name, v, "must be an object of names to strings");
        }
        v.fields().forEachRemaining(e -> put.accept(e.getKey(), text(name + "." + e.getKey(), e.getValue())));
    }

    /** The page limit of a stored config, without building it all (for listing jobs); 0 if unreadable. */
    public static int maxPages(String json) {
        try {
            JsonNode max = JSON.readTree(json).get("maxPages");
            return max == null ? CrawlConfig.builder().seed("http://localhost/").build().scope().maxPages()
                    : max.asInt();
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return 0;
        }
    }

    /** Whether a stored config is a continuous job's (it revisits its pages), without building it all. */
    public static boolean continuous(String json) {
        try {
            JsonNode revisit = JSON.readTree(json).get("revisit");
            return revisit != null && !revisit.isNull();
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    /** The seeds of a stored config without building it all (for listing jobs). */
    public static List<String> seeds(String json) {
        try {
            JsonNode seeds = JSON.readTree(json).get("seeds");
            return seeds == null ? List.of() : JSON.convertValue(seeds, JSON.getTypeFactory()
                    .constructCollectionType(List.class, String.class));
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return List.of();
        }
    }
}
