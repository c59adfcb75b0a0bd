package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The canonical target of an HTTP {@code Link} header, in the forms RFC 8288 and servers write. */
class LinkHeaderTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
            <https://a.test/doc.pdf>; rel="canonical"                                  | https://a.test/doc.pdf
            <https://a.test/doc.pdf>; rel=canonical                                    | https://a.test/doc.pdf
            </p/2>; rel="next", </p/1>; REL="Canonical"                               | /p/1
            <https://a.test/x>; rel="alternate canonical"; hreflang="en"               | https://a.test/x
            <https://a.test/style.css>; rel=preload; as=style, <https://a.test/c>; rel=canonical | https://a.test/c
            <https://a.test/x>; rel="canonicalish"                                    | NONE
            <https://a.test/x>; title="rel=canonical"                                  | NONE
            <https://cdn.test/a,b.js>; rel=preload                                     | NONE
            """)
    void theCanonicalTargetIsTheOneWhoseRelSaysSo(String header, String target) {
        assertThat(LinkHeader.canonical(header)).isEqualTo(target);
    }

    /** A server's header of any length is read in one pass: a pattern with nested repeats overflowed the stack. */
    @Test
    void aLongHostileHeaderIsReadWithoutFailing() {
        assertThat(LinkHeader.canonical("<a>" + "; x".repeat(20_000) + "\"")).isNull();
        assertThat(LinkHeader.canonical("<a>" + "; x=\"".repeat(20_000))).isNull();
        assertThat(LinkHeader.canonical("<".repeat(50_000))).isNull();
        assertThat(LinkHeader.canonical("<a>; rel=\"" + "a ".repeat(50_000) + "canonical\"")).isEqualTo("a");
    }
}
