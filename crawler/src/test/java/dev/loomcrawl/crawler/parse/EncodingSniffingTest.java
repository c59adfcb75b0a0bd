package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.encoding.Encodings;
import dev.loomcrawl.crawler.encoding.PageEncoding.From;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A page read as a browser reads it, against html5lib's encoding tests: a byte-order mark, the prescan of the
 * first 1,024 bytes, and a {@code <meta>} the parser meets past them, each test's page parsed to the same
 * document as its expected encoding gives (an ASCII page reads the same in any). The tests' default where
 * nothing declares an encoding is windows-1252; ours is a guess, so there the test asks that nothing declared
 * one.
 */
class EncodingSniffingTest {
    private static final EnumSet<From> UNDECLARED = EnumSet.of(From.UTF8, From.DETECTED, From.DEFAULT);

    /** One test of a file: the page's bytes as written and the encoding label expected. */
    record Case(String file, int number, byte[] data, String expected) {
        @Override
        public String toString() {
            String start = new String(data, StandardCharsets.ISO_8859_1).replace("\n", "\\n");
            return file + " #" + number + ": " + start.substring(0, Math.min(start.length(), 80));
        }
    }

    static Stream<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        for (String file : List.of("tests1.dat", "tests2.dat", "test-yahoo-jp.dat")) {
            String text;
            try (InputStream in = Objects.requireNonNull(
                    EncodingSniffingTest.class.getResourceAsStream("/html5lib-encoding/" + file))) {
                text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1); // byte for byte
            }
            int n = 0;
            for (String block : text.split("(?m)^#data\n")) {
                int at = block.indexOf("\n#encoding\n");
                if (at >= 0) {
                    String expected = block.substring(at + "\n#encoding\n".length()).lines().findFirst().orElseThrow();
                    cases.add(new Case(file, ++n, block.substring(0, at).getBytes(StandardCharsets.ISO_8859_1),
                            expected));
                }
            }
        }
        assertThat(cases).hasSize(59 + 22 + 1);
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readsThePageABrowserReads(Case c) {
        PageParser.Decoded d = PageParser.document(c.data(), null, "http://a.test/");
        String expected = Objects.requireNonNull(Encodings.name(c.expected()));
        if (expected.equals("windows-1252") && UNDECLARED.contains(d.encoding().from())) {
            return; // nothing declared one: the tests' default, our guess
        }
        // the page as the expected encoding reads it, its byte-order mark no text
        Charset charset = Objects.requireNonNull(Encodings.charset(expected));
        String text = new String(c.data(), charset);
        text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        assertThat(d.doc().html()).isEqualTo(Jsoup.parse(text, "http://a.test/").html());
    }

    @Test
    void aLateMetaDecodesThePageAgain() {
        String text = "Привет, мир";
        byte[] page = ("<html><head><script>" + "/* long */ ".repeat(200) + "</script>"
                + "<meta http-equiv=Content-Type content='text/html; charset=koi8-r'><title>" + text + "</title>")
                .getBytes(Charset.forName("KOI8-R"));
        PageParser.Decoded d = PageParser.document(page, null, "http://a.test/");
        assertThat(d.encoding().from()).isEqualTo(From.LATE_META);
        assertThat(d.doc().title()).isEqualTo(text);
        // a header names the encoding for certain: a meta cannot change it
        assertThat(PageParser.document(page, "utf-8", "http://a.test/").encoding().from()).isEqualTo(From.HEADER);
    }

    @Test
    void aLateMetaDoesNotUndoWellFormedUtf8() {
        String text = "Привет, мир — café";
        byte[] page = ("<html><head><script>" + "/* long */ ".repeat(200) + "</script>"
                + "<meta charset=windows-1252><title>" + text + "</title>").getBytes(StandardCharsets.UTF_8);
        PageParser.Decoded d = PageParser.document(page, null, "http://a.test/");
        assertThat(d.encoding().from()).isEqualTo(From.UTF8);
        assertThat(d.doc().title()).isEqualTo(text);
    }
}
