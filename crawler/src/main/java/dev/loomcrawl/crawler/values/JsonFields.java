package dev.loomcrawl.crawler.values;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** The fields of a job's JSON, each read as its type, or refused naming the field ({@link ConfigCodec#read}). */
final class JsonFields {
    private JsonFields() {}

    /** {@code {"min": "PT1M", "max": "P7D"}}: ISO-8601 durations, either one may be left out. */
    static Freshness.Revisit revisit(String name, JsonNode v) {
        Map<String, JsonNode> parts = object(name, v, Set.of("min", "max"), Set.of());
        Duration min = parts.get("min") == null ? null : isoDuration(name + ".min", parts.get("min"));
        Duration max = parts.get("max") == null ? null : isoDuration(name + ".max", parts.get("max"));
        return Freshness.Revisit.of(min, max);
    }

    /** {@code {"url": "https://...", "secret": "..."}}. */
    static Freshness.Webhook webhook(String name, JsonNode v) {
        Map<String, JsonNode> parts = object(name, v, Set.of("url", "secret"), Set.of("url", "secret"));
        return new Freshness.Webhook(text(name + ".url", parts.get("url")), text(name + ".secret", parts.get("secret")));
    }

    /** The fields of an object holding only {@code names}, each of {@code required} present. */
    static Map<String, JsonNode> object(String name, JsonNode v, Set<String> names, Set<String> required) {
        if (!v.isObject()) {
            throw new ConfigException(name, v, "must be an object with " + String.join(" and ", new TreeSet<>(names)));
        }
        Map<String, JsonNode> parts = new HashMap<>();
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

    static Duration isoDuration(String name, JsonNode v) {
        String text = text(name, v);
        try {
            return Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new ConfigException(name, text, "must be an ISO-8601 duration such as PT30S, PT1M or P7D, was '" + text + "'");
        }
    }

    static void requireArray(String name, JsonNode v) {
        if (!v.isArray()) {
            throw new ConfigException(name, v, "must be an array");
        }
    }

    static String text(String name, @Nullable JsonNode v) {
        if (v == null || !v.isTextual()) {
            throw new ConfigException(name, v, "must be a string");
        }
        return v.textValue();
    }

    static ContentFormat contentFormat(String name, JsonNode v) {
        try {
            return ContentFormat.parse(text(name, v));
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, v.textValue(), String.valueOf(e.getMessage()));
        }
    }

    static int integer(String name, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ConfigException(name, v, "must be a whole number" + (v.isNumber() ? " in range, was " + v : ""));
        }
        return v.intValue();
    }

    static Duration millis(String name, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ConfigException(name, v, "must be a whole number of milliseconds");
        }
        return Duration.ofMillis(v.longValue());
    }

    static boolean bool(String name, JsonNode v) {
        if (!v.isBoolean()) {
            throw new ConfigException(name, v, "must be true or false");
        }
        return v.booleanValue();
    }

    static void each(String name, JsonNode v, Consumer<String> add) {
        requireArray(name, v);
        for (int i = 0; i < v.size(); i++) {
            add.accept(text(name + "[" + i + "]", v.get(i)));
        }
    }

    static void strings(String name, JsonNode v, BiConsumer<String, String> put) {
        if (!v.isObject()) {
            throw new ConfigException(name, v, "must be an object of names to strings");
        }
        v.fields().forEachRemaining(e -> put.accept(e.getKey(), text(name + "." + e.getKey(), e.getValue())));
    }
}
