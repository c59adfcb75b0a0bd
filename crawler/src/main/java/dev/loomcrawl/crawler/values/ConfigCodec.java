package dev.loomcrawl.crawler.values;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
        o.put("cookies", c.fetch().cookies());
        o.put("maxBodyBytes", c.fetch().maxBodyBytes());
        o.put("maxRedirects", c.fetch().maxRedirects());
        o.put("userAgent", c.fetch().userAgent());
        o.set("headers", JSON.valueToTree(c.fetch().headers()));
        o.set("allowedHosts", JSON.valueToTree(c.scope().allowedHosts()));
        o.set("allowedDomains", JSON.valueToTree(c.scope().allowedDomains()));
        o.set("allowPatterns", JSON.valueToTree(c.scope().allowPatterns()));
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
        o.put("ignoreNoindex", c.output().ignoreNoindex());
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
            if (!node.hasNonNull("revisit")) {
                // A one-pass job stored with a webhook, which it never used, still reads.
                ((ObjectNode) node).remove("webhook");
            }
            return read(node, CrawlConfig.builder());
        } catch (JsonProcessingException e) {
            throw new ConfigException("config", json, "is not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Reads {@code json} onto {@code defaults}: every field present replaces the default.
     *
     * @throws ConfigException naming the JSON field: unknown, of the wrong type, or out of range
     */
    public static CrawlConfig read(JsonNode json, CrawlConfigBuilder defaults) {
        CrawlConfigBuilder b = defaults;
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            JsonNode v = field.getValue();
            field(b, name, v);
        }
        try {
            return b.build();
        } catch (ConfigException e) {
            throw new ConfigException(jsonName(e.field()), e.value(), e.problem());
        }
    }

    /** One field of a job's JSON onto {@code b}. */
    private static void field(CrawlConfigBuilder b, String name, JsonNode v) {
        switch (name) {
            case "seeds" -> {
                JsonFields.requireArray(name, v);
                for (int i = 0; i < v.size(); i++) {
                    b.seed(JsonFields.text(name + "[" + i + "]", v.get(i)));
                }
            }
            case "maxDepth" -> b.maxDepth(JsonFields.integer(name, v));
            case "maxPages" -> b.maxPages(JsonFields.integer(name, v));
            case "perHostConcurrency" -> b.perHostConcurrency(JsonFields.integer(name, v));
            case "maxInFlight" -> b.maxInFlight(JsonFields.integer(name, v));
            case "connectTimeoutMs" -> b.connectTimeout(JsonFields.millis(name, v));
            case "requestTimeoutMs" -> b.requestTimeout(JsonFields.millis(name, v));
            case "fetchDeadlineMs" -> b.fetchDeadline(JsonFields.millis(name, v));
            case "maxRetries" -> b.maxRetries(JsonFields.integer(name, v));
            case "hostDelayMs" -> b.hostDelay(JsonFields.millis(name, v));
            case "politenessKey" -> b.politenessKey(PolitenessKey.parse(name, JsonFields.text(name, v)));
            case "hostFailureLimit" -> b.hostFailureLimit(JsonFields.integer(name, v));
            case "refusePrivateAddresses" -> b.refusePrivateAddresses(JsonFields.bool(name, v));
            case "cookies" -> b.cookies(JsonFields.bool(name, v));
            case "maxBodyBytes" -> b.maxBodyBytes(JsonFields.integer(name, v));
            case "maxRedirects" -> b.maxRedirects(JsonFields.integer(name, v));
            case "userAgent" -> b.userAgent(JsonFields.text(name, v));
            case "headers" -> JsonFields.strings(name, v, b::header);
            case "allowedHosts" -> JsonFields.each(name, v, b::allowHost);
            case "allowedDomains" -> JsonFields.each(name, v, b::allowDomain);
            case "allowPatterns" -> JsonFields.each(name, v, b::allowPattern);
            case "denyPatterns" -> JsonFields.each(name, v, b::denyPattern);
            case "respectRobots" -> b.respectRobots(JsonFields.bool(name, v));
            case "robotsRetryForMs" -> b.robotsRetryFor(JsonFields.millis(name, v));
            case "sitemaps" -> b.sitemaps(JsonFields.bool(name, v));
            case "ignoreNofollow" -> b.ignoreNofollow(JsonFields.bool(name, v));
            case "acceptTypes" -> JsonFields.each(name, v, b::acceptType);
            case "extract" -> JsonFields.strings(name, v, b::extract);
            case "extractAll" -> JsonFields.strings(name, v, b::extractAll);
            case "storeBody" -> b.storeBody(JsonFields.bool(name, v));
            case "content" -> b.content(JsonFields.contentFormat(name, v));
            case "contentMaxChars" -> b.contentMaxChars(JsonFields.integer(name, v));
            case "ignoreNoindex" -> b.ignoreNoindex(JsonFields.bool(name, v));
            case "warc" -> b.warcFile(v.isNull() ? null : JsonFields.text(name, v));
            case "mode" -> b.mode(ExecutionMode.parse(JsonFields.text(name, v)));
            case "poolSize" -> b.poolSize(JsonFields.integer(name, v));
            case "revisit" -> b.revisit(v.isNull() ? null : JsonFields.revisit(name, v));
            case "skipNearDuplicates" -> b.skipNearDuplicates(JsonFields.bool(name, v));
            case "webhook" -> b.webhook(v.isNull() ? null : JsonFields.webhook(name, v));
            default -> throw new ConfigException(name, null, "is not a known field");
        }
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
        return given(json, "revisit");
    }

    /** Whether a stored config has a webhook, without building it all. */
    public static boolean hasWebhook(String json) {
        return given(json, "webhook");
    }

    /** Whether a stored config keeps its pages' main content, without building it all. */
    public static boolean keepsContent(String json) {
        String content = text(json, "content");
        return content != null && !content.equals(ContentFormat.NONE.label());
    }

    /** The WARC file of a stored config, without building it all; null for a job that keeps none. */
    public static @Nullable String warcFile(String json) {
        return text(json, "warc");
    }

    /** Whether a stored config gives {@code field} a value other than null; false if unreadable. */
    private static boolean given(String json, String field) {
        try {
            JsonNode value = JSON.readTree(json).get(field);
            return value != null && !value.isNull();
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return false;
        }
    }

    /** A stored config's text field; null when it has none or is unreadable. */
    private static @Nullable String text(String json, String field) {
        try {
            JsonNode value = JSON.readTree(json).get(field);
            return value == null || !value.isTextual() ? null : value.asText();
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            return null;
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
