package dev.loomcrawl.crawler.url;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link WebUrl#parse} against the URL Standard's own test data (web-platform-tests' urltestdata.json): every
 * case whose base, if any, is http or https, and every case without one. Where a browser gets an http(s) URL
 * we must give the same href; where it fails, we must fail; where it gets a URL of another scheme, we must
 * name that scheme (and parse no further).
 */
public class UrlStandardTest {

    /** One case of the data: {@code href} null where the standard fails. */
    public record Case(String input, String base, String href, boolean failure) {
        @Override
        public String toString() {
            return input.replace("\n", "\\n").replace("\t", "\\t") + " against " + base;
        }
    }

    /** The cases with no base or an http(s) one: what {@link WebUrl#parse} takes. */
    public static Stream<Case> cases() throws IOException {
        // relative to a file:, about: or other URL: not a link a crawler follows (LinksAsBrowsersTest has them)
        return allCases().filter(c -> c.base() == null || c.base().startsWith("http:") || c.base().startsWith("https:"));
    }

    /** Every case of the test data, whatever its base's scheme. */
    public static Stream<Case> allCases() throws IOException {
        try (InputStream in = UrlStandardTest.class.getResourceAsStream("/url-standard/urltestdata.json")) {
            List<Case> cases = new ArrayList<>();
            for (JsonNode node : new ObjectMapper().readTree(in)) {
                if (!node.isObject()) {
                    continue; // a comment
                }
                String base = node.path("base").isNull() || node.path("base").isMissingNode() ? null : node.get("base").asText();
                cases.add(new Case(node.get("input").asText(), base, node.path("href").asText(null),
                        node.path("failure").asBoolean(false)));
            }
            return cases.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void parsesAsTheStandardSays(Case c) {
        WebUrl base = null;
        if (c.base() != null) {
            WebUrl.Parse parsedBase = WebUrl.parse(c.base());
            assertThat(parsedBase).as("base").isInstanceOf(WebUrl.Parse.Ok.class);
            base = ((WebUrl.Parse.Ok) parsedBase).url();
        }
        WebUrl.Parse parse = WebUrl.parse(c.input(), base);
        if (c.failure()) {
            assertThat(parse).isNotInstanceOf(WebUrl.Parse.Ok.class);
        } else if (c.href().startsWith("http:") || c.href().startsWith("https:")) {
            assertThat(parse).isInstanceOf(WebUrl.Parse.Ok.class);
            assertThat(((WebUrl.Parse.Ok) parse).url().href()).isEqualTo(c.href());
        } else {
            String scheme = c.href().substring(0, c.href().indexOf(':'));
            assertThat(parse).isEqualTo(new WebUrl.Parse.OtherScheme(scheme));
        }
    }

    @Test
    void theDataHoldsTheCasesWeMeanToTest() throws IOException {
        List<Case> all = cases().toList();
        assertThat(all).hasSizeGreaterThan(700);
        assertThat(all.stream().filter(c -> c.base() != null)).hasSizeGreaterThan(190);
    }
}
