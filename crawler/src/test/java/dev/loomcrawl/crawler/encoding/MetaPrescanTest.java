package dev.loomcrawl.crawler.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link MetaPrescan} at the HTML Standard's edges: UTF-16 and x-user-defined metas, XML declarations,
 * comments, quoted attributes, the {@code content} attribute's forms, the 1,024-byte window. html5lib's tests
 * hold the whole algorithm, the prescan with it ({@code EncodingSniffingTest}).
 */
class MetaPrescanTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            <meta charset=utf-16>                                      | UTF-8
            <meta charset=x-user-defined>                              | windows-1252
            <?xml version="1.0" encoding="Shift_JIS"?><p>              | Shift_JIS
            <?xml version="1.0" encoding="utf-16"?><p>                 | UTF-8
            <?xml version="1.0" encoding=" koi8-r"?><p>                | ''
            <?xml version="1.0"?><meta charset=euc-kr>                 | EUC-KR
            <!-- <meta charset=koi8-r> --><meta charset=iso-8859-8-i>  | ISO-8859-8-I
            <!--><meta charset=koi8-r>                                 | KOI8-R
            <div title='<meta charset=koi8-r>'><meta charset=gbk>      | GBK
            <meta http-equiv=content-type content='charset=latin1'>    | windows-1252
            <meta content='text/html; charset="big5"' http-equiv=Content-Type>  | Big5
            <meta content='charset=big5'>                              | ''
            <meta charset=nonsense><meta charset=koi8-u>               | KOI8-U
            <meta charset=koi8-u                                       | ''
            """)
    void followsTheStandardsEdges(String page, String expected) {
        assertThat(MetaPrescan.declared(page.getBytes(StandardCharsets.ISO_8859_1)))
                .isEqualTo(expected.isEmpty() ? null : expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            text/html; charset=utf-8             | UTF-8
            text/html; CHARSET = "ISO-8859-1"    | windows-1252
            charset=Shift_JIS                    | Shift_JIS
            charset="x-sjis"                     | Shift_JIS
            charset=foo ; charset=utf-8          | ''
            charset=                             | ''
            """)
    void readsContentAttributes(String content, String expected) {
        assertThat(MetaPrescan.fromContentAttribute(content)).isEqualTo(expected.isEmpty() ? null : expected);
    }

    @ParameterizedTest
    @CsvSource({"990, windows-1251", "1000, ''"})
    void looksAtTheFirst1024BytesOnly(int padding, String expected) {
        byte[] page = (" ".repeat(padding) + "<meta charset=windows-1251>").getBytes(StandardCharsets.US_ASCII);
        assertThat(MetaPrescan.declared(page)).isEqualTo(expected.isEmpty() ? null : expected);
    }
}
