package dev.loomcrawl.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself, before a request reaches a route (a path with {@code %00}, {@code %ff},
 * {@code [} or {@code ..} above the root, a URI too long, a malformed request line), for every method, in the
 * API's one error shape instead of Jetty's HTML page: {@code {"error": ..., "message": ..., "field": null}}.
 * Installed on the server, which answers these.
 */
final class JsonErrorHandler extends org.eclipse.jetty.server.handler.ErrorHandler {

    /** A body for every method: Jetty's default writes one only for GET, POST and HEAD, so a PUT got none. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    /**
     * JSON whatever the client accepts: Jetty writes it (its own buffer and callbacks), in our shape. Requests the
     * HTTP parser refuses (400, 414, 431, 505) come here too, with a request Jetty makes up for them.
     */
    @Override
    protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
            String contentType, List<Charset> charsets, int code, String message, Throwable cause) throws IOException {
        return super.generateAcceptableResponse(request, response, callback, "application/json",
                List.of(StandardCharsets.UTF_8), code, message, cause);
    }

    @Override
    protected void writeErrorJson(Request request, PrintWriter writer, int code, String message, Throwable cause) {
        writer.write(body(code, message));
    }

    static String body(int status, String message) {
        String said = message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
        try {
            return Json.MAPPER.writeValueAsString(new ApiError.Body(ApiServer.errorCode(status), said, null));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an error body is always writable", e);
        }
    }
}
