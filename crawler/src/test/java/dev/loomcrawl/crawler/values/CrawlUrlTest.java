package dev.loomcrawl.crawler.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.loomcrawl.crawler.politeness.Robots;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CrawlUrlTest {

    /** A URL is what a browser makes of the string, fragment dropped; the path and query are left as written. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            HTTP://Example.COM:80/a/../b#frag       | http://example.com/b            | example.com:80
            http://example.com                      | http://example.com/             | example.com:80
            https://example.com:443/                | https://example.com/            | example.com:443
            https://Example.com:8443/x              | https://example.com:8443/x      | example.com:8443
            http://h1.test:8080/p q                 | http://h1.test:8080/p%20q       | h1.test:8080
            http://x.com/%7euser/                   | http://x.com/%7euser/           | x.com:80
            http://x.com/a//b                       | http://x.com/a//b               | x.com:80
            http://x.com/a#                         | http://x.com/a                  | x.com:80
            http://[::1]:8080/a                     | http://[::1]:8080/a             | [::1]:8080
            http://h1.test:65535/                   | http://h1.test:65535/           | h1.test:65535
            http://a.test/?b=2&a=1                  | http://a.test/?b=2&a=1          | a.test:80
            http://a.test/%2E%2E/x?y=1              | http://a.test/x?y=1             | a.test:80
            http://a.test/100%25/%7?q               | http://a.test/100%25/%7?q       | a.test:80
            http://example.com/foo/%2e./%2e%2e/.%2e/%2e.bar | http://example.com/%2e.bar | example.com:80
            http://0xffffffff/                      | http://255.255.255.255/         | 255.255.255.255:80
            http://999999999/                       | http://59.154.201.255/          | 59.154.201.255:80
            http://192.168.257/                     | http://192.168.1.1/             | 192.168.1.1:80
            http://127.1:8080/                      | http://127.0.0.1:8080/          | 127.0.0.1:8080
            http://2130706433:8080/                 | http://127.0.0.1:8080/          | 127.0.0.1:8080
            http://0177.0.0.1./                     | http://127.0.0.1/               | 127.0.0.1:80
            http://[::127.0.0.1]/                   | http://[::7f00:1]/              | [::7f00:1]:80
            http://[1:0::]/                         | http://[1::]/                   | [1::]:80
            http://[0:0:0:0:0:0:0:1]:8080/          | http://[::1]:8080/              | [::1]:8080
            http://faß.ExAmPlE/                     | http://xn--fa-hia.example/      | xn--fa-hia.example:80
            http://EXAMPLE.com./                    | http://example.com./            | example.com.:80
            """)
    void isWhatABrowserMakesOfIt(String raw, String url, String hostKey) {
        CrawlUrl parsed = CrawlUrl.of(raw);
        assertThat(parsed.url()).isEqualTo(url);
        assertThat(parsed.hostKey()).isEqualTo(hostKey);
    }

    /** Links on a page whose base is {@code http://example.org/foo/bar}, as a browser resolves them. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "none", textBlock = """
            \\x                                   | http://example.org/x
            ///example.org/path                     | http://example.org/path
            http:foo.com                            | http://example.org/foo/foo.com
            //Example.com:80/a?b#c                  | http://example.com/a?b
            ../../../x                              | http://example.org/x
            ?q                                      | http://example.org/foo/bar?q
            http://ho%2Fst/                         | none
            http://1.2.3.4.5                        | none
            http://[google.com]                     | none
            http://f:4294967377/c                   | none
            http://user:pass@example.com/           | none
            mailto:a@b.c                            | none
            """)
    void linksResolveAsInABrowser(String href, String expected) {
        var base = CrawlUrl.of("http://example.org/foo/bar").web();
        CrawlUrl.Check check = CrawlUrl.check(href, base);
        assertThat(check instanceof CrawlUrl.Check.Ok ok ? ok.url().url() : null).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ftp://x                      | must be http or https
            not a url                    | not a valid URL
            mailto:a@b.c                 | must be http or https
            http://user:pw@x.com/        | must not carry credentials
            http://                      | not a valid URL (no host)
            ''                           | empty
            http://127.0.0.1:99999/      | a port above 65535
            http://a.test:0/             | port 0
            http://127.0.0.1:-1/         | a port that is not a number
            http://a.test:+80/           | a port that is not a number
            http://[::1]:+80/            | a port that is not a number
            http://a b.test/             | the host holds the character U+0020
            http://1.2.3.4.5/            | more than four parts
            """)
    void refuses(String raw, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> CrawlUrl.of(raw)).withMessageContaining(message);
        assertThat(CrawlUrl.parse(raw)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://user:s3cret@x.com/", "ftp://user:s3cret@x.com/", "http://user:s3cret@a b/",
            "HTTPS:\\\\user:s3cret@x.com:99999/"})
    void aPasswordIsNeverRepeatedInTheError(String url) {
        assertThatIllegalArgumentException().isThrownBy(() -> CrawlUrl.of(url)).withMessageNotContaining("s3cret");
    }

    @org.junit.jupiter.api.Test
    void aLoneSurrogateIsWhatABrowserMakesOfIt() {
        assertThat(CrawlUrl.of("http://a.test/\uD800x").url()).isEqualTo("http://a.test/%EF%BF%BDx");
        assertThat(CrawlUrl.of("http://a.test/\uD83D\uDE00").url()).contains("%F0%9F%98%80");
    }

    /** Not URLs, as the standard says, and policy refusals are left out; other schemes are ignored. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            http://a.test:99999/         | Invalid
            mailto:x@y.z                 | Ignored
            javascript:void(0)           | Ignored
            http://a.test/ok             | Ok
            http://a.test:/ok            | Ok
            http://[::1]:8080/ok         | Ok
            """)
    void linksAreOkIgnoredOrInvalid(String raw, String kind) {
        assertThat(CrawlUrl.check(raw).getClass().getSimpleName()).isEqualTo(kind);
    }

    /** What the HTTP client is given: the characters java.net.URI refuses, escaped; the rest as the URL has it. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ',', quoteCharacter = '"', textBlock = """
            http://a.test/a|b?x={1}&y=[2],   http://a.test/a%7Cb?x=%7B1%7D&y=%5B2%5D
            http://a.test/100%/x?q=50%,      http://a.test/100%25/x?q=50%25
            http://[::1]:8080/%41?b=%2f,     http://[::1]:8080/%41?b=%2f
            """)
    void theUriForTheClientEscapesWhatItRefuses(String raw, String uri) {
        assertThat(CrawlUrl.of(raw).toUri()).hasToString(uri);
    }

    /**
     * The {@link java.net.URL} that robots.txt rules are matched on, built from the parts, has the path and
     * query a full parse of the URL gives (the rules read only those), for ports, IPv6, queries and escapes.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http://a.test/", "http://a.test", "https://a.test:8443/x/y?b=2&a=1",
            "http://[::1]:8080/p?q", "http://a.test/%7Euser/caf%C3%A9?x=1", "http://a.test/a?x=%2F", "http://xn--caf-dma.test/a/b/"})
    void theUrlForRobotsMatchingHasThePathAndQueryOfAFullParse(String raw) throws Exception {
        CrawlUrl url = CrawlUrl.of(raw);
        java.net.URL parsed = java.net.URI.create(url.url()).toURL();
        java.net.URL built = url.toUrl();
        if (built == null) { // a '?' inside the query: matched on the string instead
            assertThat(url.url().indexOf('?')).isNotEqualTo(url.url().lastIndexOf('?'));
            return;
        }
        assertThat(built.getPath().isEmpty() ? "/" : built.getPath()).isEqualTo(parsed.getPath().isEmpty() ? "/" : parsed.getPath());
        assertThat(built.getQuery()).isEqualTo(parsed.getQuery());
        assertThat(built.getHost()).isEqualTo(parsed.getHost());
    }

    /** Rules matched on the built URL decide as they do on the string: prefixes, queries, escapes, wildcards. */
    @org.junit.jupiter.api.Test
    void robotsRulesDecideAsOnTheWholeString() {
        String txt = "User-agent: *\nDisallow: /private/\nDisallow: /*?sid=\nDisallow: /caf%C3%A9$\nAllow: /private/ok\n";
        Robots.Rules rules = Robots.parse(CrawlUrl.of("http://a.test/robots.txt"), txt.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "text/plain", "loomcrawl");
        for (String raw : List.of("http://a.test/", "http://a.test/private/x", "http://a.test/private/ok", "http://a.test/a?sid=1",
                "http://a.test/a?x=1", "http://a.test/caf%C3%A9", "http://a.test/caf%C3%A9/more", "http://a.test/robots.txt",
                "http://a.test/private/x?y=%2F", "http://a.test/a?q=?sid=1")) {
            CrawlUrl url = CrawlUrl.of(raw);
            assertThat(rules.allows(url)).as(raw).isEqualTo(rules.rules().isAllowed(url.url()));
        }
        assertThat(rules.allows(CrawlUrl.of("http://a.test/private/x"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/a?sid=1"))).isFalse();
        assertThat(rules.allows(CrawlUrl.of("http://a.test/private/ok"))).isTrue();
    }
}
