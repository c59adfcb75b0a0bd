package dev.loomcrawl.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import dev.loomcrawl.testkit.Http;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every real response of the API tests, checked against {@code /openapi.json} by Atlassian's
 * swagger-request-validator: a field, status or media type the document does not describe fails the test,
 * so the document cannot drift from the server.
 */
final class Contract {
    private static final OpenApiInteractionValidator VALIDATOR = OpenApiInteractionValidator
            .createForInlineApiSpecification(document())
            .withLevelResolver(LevelResolver.create()
                    // Tests call routes that do not exist and methods a route lacks: those answers are
                    // checked by the tests themselves (404 and 405 with their Allow header).
                    .withLevel("validation.request.path.missing", ValidationReport.Level.IGNORE)
                    .withLevel("validation.request.operation.notAllowed", ValidationReport.Level.IGNORE)
                    .withLevel("validation.response.path.missing", ValidationReport.Level.IGNORE)
                    .withLevel("validation.response.operation.notAllowed", ValidationReport.Level.IGNORE)
                    .build())
            .build();

    private final List<String> problems = new CopyOnWriteArrayList<>();
    private int checked;

    /** The check to hand {@link Http#observe}. */
    void check(HttpRequest request, Http.Response response) {
        String path = request.uri().getRawPath();
        String contentType = response.header("Content-Type");
        SimpleResponse.Builder r = SimpleResponse.Builder.status(response.status()).withBody(response.text());
        if (contentType != null) {
            r.withContentType(contentType);
        }
        ValidationReport report = VALIDATOR.validateResponse(path, Request.Method.valueOf(request.method()), r.build());
        checked++;
        if (report.hasErrors()) {
            problems.add(request.method() + " " + path + " -> " + response.status() + ": " + report.getMessages());
        }
    }

    /** Fails if any response broke the document; and proves some were checked. */
    void assertHeld() {
        assertThat(checked).isPositive();
        assertThat(problems).as("responses the OpenAPI document does not describe").isEmpty();
    }

    private static String document() {
        try (InputStream in = ApiServer.class.getResourceAsStream("/openapi.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
