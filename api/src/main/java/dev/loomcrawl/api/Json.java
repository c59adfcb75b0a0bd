package dev.loomcrawl.api;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.stream.Collectors;

/** The API's JSON: strict on the way in (unknown fields, wrong types), ISO dates on the way out. */
final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS) // "maxDepth": "3" is an error, not 3
            .build();

    private Json() {}

    /** Parses a request body; every problem becomes a 400 naming the field where there is one. */
    static <T> T read(String body, Class<T> type) {
        if (body == null || body.isBlank()) {
            throw ApiError.badRequest("the request body is empty; send a JSON object", null);
        }
        try {
            T value = MAPPER.readValue(body, type);
            if (value == null) {
                throw ApiError.badRequest("the request body must be a JSON object, not null", null);
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            throw ApiError.badRequest("unknown field '" + e.getPropertyName() + "'", path(e));
        } catch (JsonParseException | StreamConstraintsException e) {
            throw ApiError.badRequest("malformed JSON: " + e.getOriginalMessage(), null);
        } catch (JsonMappingException e) {
            String field = path(e);
            throw ApiError.badRequest(field == null ? "the request body must be a JSON object"
                    : "wrong type or value for '" + field + "'", field);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("malformed JSON: " + e.getOriginalMessage(), null);
        }
    }

    /** {@code seeds[2]} or {@code maxDepth}, from Jackson's path to the bad value. */
    private static String path(JsonMappingException e) {
        if (e.getPath().isEmpty()) {
            return null;
        }
        String p = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining());
        return p.startsWith(".") ? p.substring(1) : p;
    }
}
