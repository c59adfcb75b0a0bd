package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlUrlTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            HTTP://Example.COM:80/a/../b#frag       | http://example.com/b            | example.com:80
            http://example.com                      | http://example.com/             | example.com:80
            https://example.com:443/                | https://example.com/            | example.com:443
            https://Example.com:8443/x              | https://example.com:8443/x      | example.com:8443
            http://h1.test:8080/p q                 | http://h1.test:8080/p%20q       | h1.test:8080
            http://x.com/%7euser/                   | http://x.com/~user/             | x.com:80
            http://x.com/a//b                       | http://x.com/a/b                | x.com:80
            http://x.com/a#                         | http://x.com/a                  | x.com:80
            http://[::1]:8080/a                     | http://[::1]:8080/a             | [::1]:8080
            http://h1.test:65535/                   | http://h1.test:65535/           | h1.test:65535
            """)
    void normalises(String raw, String url, String hostKey) {
        CrawlUrl parsed = CrawlUrl.of(raw);
        assertThat(parsed.url()).isEqualTo(url);
        assertThat(parsed.hostKey()).isEqualTo(hostKey);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ftp://x                      | must be http or https
            not a url                    | must be http or https
            mailto:a@b.c                 | must be http or https
            http://user:pw@x.com/        | must not carry credentials
            http:///nohost               | no host
            ''                           | empty
            http://127.0.0.1:99999/      | port out of range
            http://a.test:0/             | port out of range
            http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.test/ | longer than 63
            http://a..b.test/            | not a crawlable URL
            """)
    void refuses(String raw, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> CrawlUrl.of(raw)).withMessageContaining(message);
        assertThat(CrawlUrl.parse(raw)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aLoneSurrogateIsRefusedNotDropped() {
        assertThatIllegalArgumentException().isThrownBy(() -> CrawlUrl.of("http://a.test/\uD800x"))
                .withMessageContaining("lone surrogate");
        assertThat(CrawlUrl.of("http://a.test/\uD83D\uDE00").url()).contains("%F0%9F%98%80");
    }

    /** Broken http(s) links are worth recording; links that are no http(s) at all are simply not links to crawl. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            http://a.test:99999/         | Invalid
            mailto:x@y.z                 | Ignored
            javascript:void(0)           | Ignored
            http://a.test/ok             | Ok
            """)
    void linksAreOkIgnoredOrInvalid(String raw, String kind) {
        assertThat(CrawlUrl.check(raw).getClass().getSimpleName()).isEqualTo(kind);
    }
}
