package dev.loomcrawl.crawler.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.url.WebUrl;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plain-link path must give exactly what the URL Standard's parser and the crawler's policy give, on every
 * combination of the shapes at its edges, and be taken for the common shapes, or it saves nothing.
 */
class PlainLinksTest {

    /** What the parser and the policy make of {@code href}, written out here rather than through CrawlUrl. */
    private static CrawlUrl.Check parsed(String href, WebUrl base) {
        if (!(WebUrl.parse(href, base) instanceof WebUrl.Parse.Ok ok)) {
            return null;
        }
        WebUrl url = ok.url();
        String kept = url.hrefWithoutFragment();
        if (!url.username().isEmpty() || !url.password().isEmpty() || url.port() == 0 || kept.length() > 2048) {
            return null;
        }
        return new CrawlUrl.Check.Ok(new CrawlUrl(kept, url.host(), url.host() + ":" + url.effectivePort()));
    }

    @Test
    void agreesWithTheParserOnEveryShapeNearTheLine() {
        List<String> bases = List.of("http://a.test/dir/page", "https://a.test:8443/", "http://user:pw@a.test/x",
                "http://[::1]:8080/p", "http://127.0.0.1/");
        List<String> schemes = List.of("", "http://", "https://", "HTTP://", "http:/", "ftp://", "//");
        List<String> hosts = List.of("", "a.test", "h3.loomcrawl.test", "Example.com", "-a.test", "a..test", "a.test.",
                "127.0.0.1", "1.2.3", "a.123", "a.0x1f", "a.1b", "xn--bcher-kva.test", "a.xn--p1ai", "ä.test",
                "a.test@b", "a_b.test", "0x7f.a");
        List<String> ports = List.of("", ":80", ":443", ":8080", ":0", ":080", ":65535", ":65536", ":123456", ":", ":8a");
        List<String> paths = List.of("", "/", "/page/1", "/a/b/", "/a//b", "//x", "/./a", "/a/./b", "/a/..", "/a/../b",
                "/.well-known/x", "/a.", "/..a", "/a./b", "/.", "/..", "/.?x", "/a%41", "/a%2e/", "/%2e%2e/x", "/a b", "/ä",
                "/a?x=1", "/a?", "/a?x='y'", "/a?x=\"y\"", "/a?x=<", "/a#f", "/a?x#f", "/#", "/a:b", "/a;b", "/a@b",
                "/a+b", "/A/B", "/a\\b", "/a|b", "/a^b", "/a`b", "/a{b}", "/a[b]", "/a?q=a\\b", "/a?q=|^`{}", "/a\tb");
        int plain = 0;
        int combinations = 0;
        for (String b : bases) {
            WebUrl base = ((WebUrl.Parse.Ok) WebUrl.parse(b)).url();
            for (String scheme : schemes) {
                for (String host : hosts) {
                    for (String port : ports) {
                        for (String path : paths) {
                            String href = scheme + host + port + path;
                            if (href.isEmpty()) {
                                continue;
                            }
                            combinations++;
                            CrawlUrl quick = PlainLinks.resolve(href, base);
                            CrawlUrl.Check full = parsed(href, base);
                            if (quick != null) {
                                plain++;
                                assertThat(full).as(href + " on " + b).isEqualTo(new CrawlUrl.Check.Ok(quick));
                            }
                        }
                    }
                }
            }
        }
        assertThat(combinations).isEqualTo(5 * 7 * 18 * 11 * 44 - 5);
        assertThat(plain).isGreaterThan(1_000);
        WebUrl page = ((WebUrl.Parse.Ok) WebUrl.parse("http://h3.loomcrawl.test:18081/page/7")).url();
        assertThat(PlainLinks.resolve("/page/12", page)).isNotNull();
        assertThat(PlainLinks.resolve("http://h9.loomcrawl.test:18081/page/3", page)).isNotNull();
        assertThat(PlainLinks.resolve("https://example.com/a/b?q=1#top", page)).isNotNull();
    }
}
