package dev.loomcrawl.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The API's JSON: strict on the way in (UTF-8 only, one object, no key twice, no trailing tokens), ISO dates on the
 * way out.
 */
final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** The largest body a route takes; ApiServer gives Javalin the same bound. */
    static final int MAX_BODY = 1_000_000;

    private Json() {}

    /** The request's body as a JSON object: 415 when not declared as JSON, 400 for anything else amiss. */
    static JsonNode object(Context ctx) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new ApiError(415, "unsupported_media_type", "send the body as Content-Type: application/json", null);
        }
        return object(body(ctx));
    }

    /**
     * The body, read here rather than by Javalin, whose answer to a body cut short (fewer bytes than its
     * Content-Length) is an empty 408.
     */
    private static byte[] body(Context ctx) {
        byte[] body;
        try {
            body = ctx.req().getInputStream().readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            throw ApiError.badRequest("the request body ended before its Content-Length"
                    + (ctx.contentLength() >= 0 ? " (" + ctx.contentLength() + " bytes)" : ""), null);
        }
        if (body.length > MAX_BODY) {
            throw new ApiError(413, "payload_too_large", "the request body is over " + MAX_BODY + " bytes", null);
        }
        return body;
    }

    static JsonNode object(byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiError.badRequest("the request body is empty; send a JSON object", null);
        }
        String text;
        try {
            // Not ctx.body(): that would quietly turn bytes that are not UTF-8 into U+FFFD and go on.
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw ApiError.badRequest("the request body is not valid UTF-8", null);
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || !node.isObject()) {
                throw ApiError.badRequest("the request body must be a JSON object", null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest(malformed(e), null);
        }
    }

    /** Where the parser stopped and why, without the parser's note on where its source was. */
    private static String malformed(JsonProcessingException e) {
        String why = String.valueOf(e.getOriginalMessage()).replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)", "");
        JsonLocation at = e.getLocation();
        return "malformed JSON" + (at == null || at.getLineNr() < 1 ? ""
                : " at line " + at.getLineNr() + ", column " + at.getColumnNr()) + ": " + why;
    }
}
