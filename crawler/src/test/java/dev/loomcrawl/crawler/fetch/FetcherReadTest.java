package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpHeaders;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Fetcher#read}: whatever the declared length says, the bytes that came, never more than the cap. */
class FetcherReadTest {

    @ParameterizedTest(name = "{0} bytes sent, {1} declared, cap {2}: {3} read")
    @CsvSource({
        // sent, declared (-1: none), cap, expected
        "0,      0,      100,    0",
        "0,      -1,     100,    0",
        "4700,   4700,   50000,  4700",  // the common case: one array of the declared size
        "4700,   -1,     50000,  4700",  // chunked: read into 8 KB, copied out
        "8192,   -1,     50000,  8192",  // exactly the first chunk
        "30000,  -1,     50000,  30000", // more than the first chunk
        "30000,  100,    50000,  30000", // more than declared: all of it
        "100,    4700,   50000,  100",   // less than declared: what came
        "60000,  -1,     50000,  50000", // over the cap: cut at the cap
        "60000,  60000,  50000,  50000", // declared over the cap: cut at the cap
        "50000,  50000,  50000,  50000", // declared at the cap
        "5000,   -1,     4000,   4000",  // a cap below the first chunk
    })
    void readsWhatCameUpToTheCap(int sent, long declared, int cap, int expected) throws Exception {
        byte[] body = new byte[sent];
        for (int i = 0; i < sent; i++) {
            body[i] = (byte) (i * 31);
        }
        byte[] read = Bodies.read(new ByteArrayInputStream(body), declared, cap);
        assertThat(read).isEqualTo(Arrays.copyOf(body, expected));
    }

    /**
     * A type sent twice, or values joined by a comma: the last that is a MIME type counts, as the Fetch Standard
     * extracts it (a server sending "text/plain" then "text/html" serves a page a browser shows). WireMock's Jetty
     * sends one {@code Content-Type} whatever a stub says, so the headers are made here.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
        text/html; charset=utf-8          | text/html; charset=utf-8
        text/plain && text/html           | text/html
        text/html && nonsense             | text/html
        text/plain, text/html;charset=x   | text/html;charset=x
        text/html && */*                  | text/html
        ''                                | ''
        """)
    void theLastTypeSentCounts(String sent, String expected) {
        List<String> values = sent.isEmpty() ? List.of() : List.of(sent.split(" && "));
        HttpHeaders headers = HttpHeaders.of(values.isEmpty() ? Map.of() : Map.of("Content-Type", values), (k, v) -> true);
        assertThat(Bodies.contentType(headers)).isEqualTo(expected);
    }
}
