package dev.loomcrawl.crawler.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.encoding.PageEncoding.From;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A page's bytes become the text a browser shows, in the order a browser decides: byte-order mark, header,
 * {@code <meta>}, then our guess; every label read as the Encoding Standard reads it.
 */
class PageEncodingTest {
    private static final String FRENCH = "Un café à Noël, où l'été dure. Déjà vu: élève, hôtel, garçon, cœur, "
            + "naïve, Ørsted, Ärger über Öl. ‘Quoted’ – “twice” … €5. ";

    @ParameterizedTest(name = "{0} as {1}")
    @CsvSource(delimiter = '|', textBlock = """
            iso-8859-1       | windows-1252
            latin1           | windows-1252
            us-ascii         | windows-1252
            "Windows-1252"   | windows-1252
            ks_c_5601-1987   | x-windows-949
            gb2312           | GB18030
            shift_jis        | windows-31j
            iso-8859-8-i     | ISO-8859-8
            unicode-1-1-utf-8 | UTF-8
            """)
    void readsTheHeadersLabelAsTheEncodingStandardDoes(String label, String charset) {
        PageEncoding.Sniffed s = PageEncoding.sniff("<p>x".getBytes(StandardCharsets.US_ASCII),
                PageEncoding.charsetParameter("text/html; charset=" + label), true);
        assertThat(s.charset()).isEqualTo(Charset.forName(charset));
        assertThat(s.from()).isEqualTo(From.HEADER);
    }

    @Test
    void aPageLabelledLatin1ShowsItsQuotesAndEuroAsABrowserDoes() {
        byte[] page = ("<title>" + FRENCH + "</title>").getBytes(Charset.forName("windows-1252"));
        assertThat(PageEncoding.decode(page, "text/html; charset=iso-8859-1")).contains(FRENCH);
        assertThat(PageEncoding.decode(page, "text/html; charset=ascii")).contains(FRENCH);
    }

    @Test
    void aByteOrderMarkWinsAndIsNoText() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] page = concat(bom, "<meta charset=koi8-r>café".getBytes(StandardCharsets.UTF_8));
        assertThat(PageEncoding.decode(page, "text/html; charset=latin1")).isEqualTo("<meta charset=koi8-r>café");
        byte[] utf16 = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "<p>Noël".getBytes(StandardCharsets.UTF_16LE));
        assertThat(PageEncoding.decode(utf16, "text/html")).isEqualTo("<p>Noël");
    }

    @Test
    void theMetaDecidesWhenTheHeaderNamesNoEncoding() {
        byte[] page = "<meta charset=windows-1251><p>Привет, мир".getBytes(Charset.forName("windows-1251"));
        for (String contentType : new String[] {"text/html", "text/html; charset=nonsense", "text/html; charset="}) {
            PageEncoding.Sniffed s = PageEncoding.sniff(page, PageEncoding.charsetParameter(contentType), true);
            assertThat(s.from()).isEqualTo(From.META);
            assertThat(PageEncoding.decode(page, contentType)).endsWith("Привет, мир");
        }
        // a meta is HTML's: in plain text it is text
        assertThat(PageEncoding.sniff(page, null, false).from()).isNotEqualTo(From.META);
    }

    @Test
    void aMetaThatSaysUtf16OnAnAsciiPageMeansUtf8() {
        byte[] page = "<meta charset=utf-16><p>Noël".getBytes(StandardCharsets.UTF_8);
        assertThat(PageEncoding.decode(page, "text/html")).isEqualTo("<meta charset=utf-16><p>Noël");
    }

    @Test
    void anUndeclaredPageIsUtf8WhenItsBytesAre() {
        byte[] page = ("<p>" + FRENCH + "日本語").getBytes(StandardCharsets.UTF_8);
        assertThat(PageEncoding.sniff(page, null, true).from()).isEqualTo(From.UTF8);
        assertThat(PageEncoding.decode(page, "text/html")).endsWith(FRENCH + "日本語");
    }

    @Test
    void anUndeclaredLegacyPageIsGuessed() {
        byte[] latin = ("<html><body><p>" + FRENCH.repeat(3) + "</p>").getBytes(Charset.forName("windows-1252"));
        assertThat(PageEncoding.sniff(latin, null, true).from()).isEqualTo(From.DETECTED);
        assertThat(PageEncoding.decode(latin, "text/html")).contains(FRENCH);

        for (String shortText : new String[] {"<p>Señor Muñoz, año", "<p>naïve résumé", "<p>café"}) {
            byte[] page = shortText.getBytes(Charset.forName("windows-1252")); // too little for a sure guess
            assertThat(PageEncoding.decode(page, "text/html")).isEqualTo(shortText);
        }

        String japanese = "日本語のページです。東京都の天気は晴れ、明日は雨が降るでしょう。ニュースと検索と地図のサービスを提供します。";
        byte[] sjis = ("<html><body><p>" + japanese.repeat(3)).getBytes(Charset.forName("windows-31j"));
        assertThat(PageEncoding.decode(sjis, "text/html")).contains(japanese);
    }

    @Test
    void junkIsDecodedWithoutAnError() {
        byte[] junk = new byte[100_000];
        new Random(7).nextBytes(junk);
        junk[0] = 'x'; // no byte-order mark
        assertThat(PageEncoding.decode(junk, "text/html")).isNotEmpty();
        assertThat(PageEncoding.decode(new byte[0], "text/html")).isEmpty();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
