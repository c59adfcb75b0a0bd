package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.loomcrawl.crawler.politeness.Robots;
import java.util.List;
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
            http://a.test/%7Euser?x=1               | http://a.test/~user?x=1         | a.test:80
            https://example.org/p%2d1/p%2d2/?q=f    | https://example.org/p-1/p-2/?q=f | example.org:443
            http://a.test/%41?b=2&a=1               | http://a.test/A?a=1&b=2         | a.test:80
            http://a.test/a%2Fb/%7e?x=%7E           | http://a.test/a%2Fb/~?x=~       | a.test:80
            http://a.test/%2E%2E/x?y=1              | http://a.test/x?y=1             | a.test:80
            http://a.test/100%25/%7?q               | http://a.test/100%25/%257?q     | a.test:80
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
            http://127.0.0.1:-1/         | port must be digits
            http://a.test:+80/           | port must be digits
            https://a.test:-443/x        | port must be digits
            http://[::1]:+80/            | port must be digits
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
            http://a.test:/ok            | Ok
            http://[::1]:8080/ok         | Ok
            """)
    void linksAreOkIgnoredOrInvalid(String raw, String kind) {
        assertThat(CrawlUrl.check(raw).getClass().getSimpleName()).isEqualTo(kind);
    }

    /**
     * The shortcut for URLs already in normal form must give exactly what the normaliser gives, on every
     * combination of the shapes at its edges: case, dots and hyphens in hosts, IP addresses, default, odd and
     * out-of-range ports, dot segments, doubled slashes, escapes, queries, fragments, characters that are
     * escaped. It must also be taken for the common shapes, or it saves nothing.
     */
    @org.junit.jupiter.api.Test
    void theShortcutForNormalUrlsAgreesWithTheNormaliser() {
        List<String> schemes = List.of("http://", "https://", "HTTP://", "Https://", "ftp://", "http:/");
        List<String> hosts = List.of("a.test", "h3.loomcrawl.test", "example", "Example.com", "a-b.c-d.test", "-a.test",
                "a-.test", "a..test", ".a.test", "a.test.", "a.test-", "127.0.0.1", "1.2.3", "a.123", "a.1b", "x1.test",
                "xn--bcher-kva.test", "a_b.test", "ä.test", "", "a.test@b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.test");
        List<String> ports = List.of("", ":80", ":443", ":8080", ":18081", ":0", ":080", ":65535", ":65536", ":99999",
                ":123456", ":", ":8a");
        List<String> paths = List.of("", "/", "/page/1", "/a/b/", "/a//b", "/./a", "/a/./b", "/a/..", "/a/../b", "/.well-known/x",
                "/a.", "/a./b", "/v1.2/x.html", "/~user_x-y", "/a%41", "/a%2f", "/a b", "/ä", "/a?x=1", "/a?", "/a#f",
                "/a:b", "/a;b", "/a@b", "/a+b", "/A/B", "//x", "/a\\b", "/a|b", "/%");
        int shortcuts = 0;
        int combinations = 0;
        for (String scheme : schemes) {
            for (String host : hosts) {
                for (String port : ports) {
                    for (String path : paths) {
                        String raw = scheme + host + port + path;
                        CrawlUrl fast = UrlNormaliser.alreadyNormal(raw);
                        combinations++;
                        if (fast != null) {
                            shortcuts++;
                            assertThat(UrlNormaliser.checkByParsing(raw)).as(raw).isEqualTo(new CrawlUrl.Check.Ok(fast));
                            assertThat(fast.url()).isEqualTo(raw);
                        }
                        assertThat(CrawlUrl.check(raw)).as(raw).isEqualTo(UrlNormaliser.checkByParsing(raw));
                    }
                }
            }
        }
        assertThat(UrlNormaliser.alreadyNormal("http://h3.loomcrawl.test:18081/page/1")).isNotNull();
        assertThat(UrlNormaliser.alreadyNormal("https://example.com/")).isNotNull();
        assertThat(UrlNormaliser.alreadyNormal("http://Example.com/")).isNull();
        assertThat(combinations).isEqualTo(6 * 22 * 13 * 30);
        assertThat(shortcuts).isGreaterThan(400); // 422 today
    }

    /**
     * The {@link java.net.URL} that robots.txt rules are matched on, built from the parts, has the path and
     * query a full parse of the URL gives (the rules read only those), for ports, IPv6, queries and escapes.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"http://a.test/", "http://a.test", "https://a.test:8443/x/y?b=2&a=1",
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
