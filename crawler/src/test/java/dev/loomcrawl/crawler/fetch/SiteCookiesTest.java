package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One cookie store per registered domain loses nothing a browser would send, and keeps what a browser keeps:
 * {@code Domain=example.co.uk} without a dot, never a public suffix or another site.
 */
class SiteCookiesTest {
    @Test
    void aDomainCookieReachesEveryNameUnderItAndNoOtherSite() throws Exception {
        SiteCookies cookies = new SiteCookies();
        cookies.put(URI.create("https://www.example.co.uk/login"),
                Map.of("Set-Cookie", List.of("session=abc; Domain=example.co.uk; Path=/", "local=1; Path=/",
                        "suffix=x; Domain=co.uk; Path=/", "elsewhere=y; Domain=other.org; Path=/")));
        cookies.put(URI.create("https://other.org/"), Map.of("Set-Cookie", List.of("theirs=2; Path=/")));

        assertThat(cookies.get(URI.create("https://shop.example.co.uk/cart"), Map.of()).get("Cookie"))
                .containsExactly("session=abc");
        assertThat(cookies.get(URI.create("https://www.example.co.uk/"), Map.of()).get("Cookie"))
                .containsExactlyInAnyOrder("session=abc", "local=1");
        assertThat(cookies.get(URI.create("https://example.org/"), Map.of()).getOrDefault("Cookie", List.of())).isEmpty();
        assertThat(cookies.get(URI.create("https://other.org/"), Map.of()).get("Cookie")).containsExactly("theirs=2");
    }
}
