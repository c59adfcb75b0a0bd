package dev.loomcrawl.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FetchRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /fetch}, checked field by field: {@code urls} (1 to 200 http(s) URLs),
 * {@code timeoutMs} (for the whole batch, 1 to 60,000, default 10,000), {@code refusePrivateAddresses} and
 * {@code respectRobots} (default true: a URL robots.txt disallows is {@code skipped}, as in a crawl),
 * {@code content} ({@code markdown}, {@code text} or {@code none}; the server's default unless given) and
 * {@code contentMaxChars}.
 */
final class FetchBody {
    static final int MAX_URLS = 200;
    static final String PRIVATE_GUARDED = "refusePrivateAddresses cannot be false on this server: it refuses"
            + " loopback, private and link-local addresses for every request (its operator lifts that with"
            + " serve --allow-private-addresses)";

    private FetchBody() {}

    /**
     * @param guard the server refuses private addresses and no request may lift that; otherwise a request may
     *     ask for it ({@code "refusePrivateAddresses": true})
     */
    static FetchRequest of(JsonNode body, boolean guard, ContentFormat defaultContent) {
        List<CrawlUrl> urls = null;
        int timeoutMs = 10_000;
        ContentFormat content = defaultContent;
        int contentMaxChars = ContentFormat.DEFAULT_MAX_CHARS;
        boolean refuse = guard;
        boolean respectRobots = true;
        boolean ignoreNoindex = false;
        var fields = body.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            JsonNode v = field.getValue();
            switch (field.getKey()) {
                case "urls" -> urls = urls(v);
                case "timeoutMs" -> {
                    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 1 || v.intValue() > 60_000) {
                        throw ApiError.badRequest("timeoutMs must be a whole number from 1 to 60000, was " + v, "timeoutMs");
                    }
                    timeoutMs = v.intValue();
                }
                case "refusePrivateAddresses" -> {
                    if (!v.isBoolean()) {
                        throw ApiError.badRequest("refusePrivateAddresses must be true or false", "refusePrivateAddresses");
                    }
                    if (guard && !v.booleanValue()) {
                        throw ApiError.badRequest(PRIVATE_GUARDED, "refusePrivateAddresses");
                    }
                    refuse = v.booleanValue();
                }
                case "respectRobots" -> {
                    if (!v.isBoolean()) {
                        throw ApiError.badRequest("respectRobots must be true or false", "respectRobots");
                    }
                    respectRobots = v.booleanValue();
                }
                case "ignoreNoindex" -> {
                    if (!v.isBoolean()) {
                        throw ApiError.badRequest("ignoreNoindex must be true or false", "ignoreNoindex");
                    }
                    ignoreNoindex = v.booleanValue();
                }
                case "content" -> {
                    try {
                        content = ContentFormat.parse(v.isTextual() ? v.textValue() : v.toString());
                    } catch (IllegalArgumentException e) {
                        throw ApiError.badRequest("content " + e.getMessage(), "content");
                    }
                }
                case "contentMaxChars" -> {
                    if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < ContentFormat.MIN_MAX_CHARS
                            || v.intValue() > ContentFormat.MAX_MAX_CHARS) {
                        throw ApiError.badRequest("contentMaxChars must be a whole number from " + ContentFormat.MIN_MAX_CHARS
                                + " to " + ContentFormat.MAX_MAX_CHARS + ", was " + v,
                                "contentMaxChars");
                    }
                    contentMaxChars = v.intValue();
                }
                default -> throw ApiError.badRequest(field.getKey() + " is not a known field", field.getKey());
            }
        }
        if (urls == null) {
            throw ApiError.badRequest("urls must hold 1 to " + MAX_URLS + " URLs", "urls");
        }
        return new FetchRequest(urls, Duration.ofMillis(timeoutMs), refuse, respectRobots,
                new ContentRequest(content, contentMaxChars, ignoreNoindex));
    }

    private static List<CrawlUrl> urls(JsonNode v) {
        if (!v.isArray() || v.isEmpty() || v.size() > MAX_URLS) {
            throw ApiError.badRequest("urls must hold 1 to " + MAX_URLS + " URLs", "urls");
        }
        List<CrawlUrl> out = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            JsonNode url = v.get(i);
            if (!url.isTextual()) {
                throw ApiError.badRequest("urls[" + i + "] must be a string", "urls[" + i + "]");
            }
            try {
                out.add(CrawlUrl.of(url.textValue()));
            } catch (IllegalArgumentException e) {
                throw ApiError.badRequest(String.valueOf(e.getMessage()), "urls[" + i + "]");
            }
        }
        return out;
    }
}
