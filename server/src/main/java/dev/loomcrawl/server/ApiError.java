package dev.loomcrawl.server;

import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP error with the API's one error shape: {@code {"error": ..., "message": ..., "field": ...}}.
 *
 * @param field the request field at fault, or null
 */
final class ApiError extends RuntimeException {
    /** The JSON body of every error. */
    record Body(String error, String message, @Nullable String field) {}

    final int status;
    final String error;
    final @Nullable String field;

    ApiError(int status, String error, String message, @Nullable String field) {
        super(message, null, false, false); // no stack trace: this is an answer, not a bug
        this.status = status;
        this.error = error;
        this.field = field;
    }

    @Override
    public String getMessage() {
        return String.valueOf(super.getMessage()); // always given
    }

    static ApiError badRequest(String message, @Nullable String field) {
        return new ApiError(400, "bad_request", message, field);
    }

    /** A bad configuration value, spoken of by its JSON name. */
    static ApiError of(ConfigException e) {
        String field = ConfigCodec.jsonName(e.field());
        return badRequest(field + " " + e.problem(), field);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, "not_found", message, null);
    }

    Body body() {
        return new Body(error, getMessage(), field);
    }
}
