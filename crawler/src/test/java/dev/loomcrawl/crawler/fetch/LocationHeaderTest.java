package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.url.WebUrl;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code Location} header's bytes become the URL a browser goes to: the cases of web-platform-tests'
 * fetch/api/redirect/redirect-location-escape.tentative.any.js, the header given as bytes in \x escapes.
 */
class LocationHeaderTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            top.txt?%E2%98%83%e2%98%83 | top.txt?%E2%98%83%e2%98%83
            top.txt?\\xe2\\x98\\x83    | top.txt?%E2%98%83
            top.txt?\\xe2\\x98\\x83%e2%98%83 | top.txt?%E2%98%83%e2%98%83
            top.txt?%\\xe2\\x98\\x83   | top.txt?%%E2%98%83
            top.txt?\\xff              | top.txt?%FF
            /caf\\xc3\\xa9/\\xc3       | /caf%C3%A9/%C3
            /\\xed\\xa0\\x80           | /%ED%A0%80
            //caf\\xc3\\xa9.test/a\\xc3\\xa9 | //xn--caf-dma.test/a%C3%A9
            """)
    void aLocationResolvesAsInABrowser(String header, String expected) {
        String isomorphic = new String(unescape(header), StandardCharsets.ISO_8859_1); // as the JDK reads a header
        WebUrl base = ((WebUrl.Parse.Ok) WebUrl.parse("http://a.test/")).url();
        WebUrl.Parse parsed = WebUrl.parse(FetchResult.Response.escapeHighBytes(isomorphic), base);
        String href = ((WebUrl.Parse.Ok) parsed).url().href();
        assertThat(href).isEqualTo(expected.startsWith("//") ? "http:" + expected
                : "http://a.test/" + expected.replaceFirst("^/", ""));
    }

    private static byte[] unescape(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            if (text.startsWith("\\x", i)) {
                out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
                i += 3;
            } else {
                out.write(text.charAt(i));
            }
        }
        return out.toByteArray();
    }
}
