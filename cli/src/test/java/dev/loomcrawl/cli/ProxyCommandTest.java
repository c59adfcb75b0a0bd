package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.testkit.TestProxy;
import dev.loomcrawl.testkit.TestSite;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --proxy}: every request through a proxy that asks for a password, and the password never shown. */
class ProxyCommandTest {
    private static final String PASSWORD = "s3cret:pass";

    @Test
    void everyRequestGoesThroughTheProxyWithItsPassword(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite().tree(15, 0); TestProxy proxy = new TestProxy("crawler", PASSWORD)) {
            CrawlCommandTest.Result r = CrawlCommandTest.run("crawl", site.url("/p/0"), "--json", "--quiet",
                    "--proxy=http://crawler:s3cret%3Apass@127.0.0.1:" + proxy.port(), "--db=jdbc:h2:" + dir.resolve("db"));

            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("\"pages\":15");
            // each request the site answered came through the proxy with the right password
            long passed = proxy.seen.stream().filter(TestProxy.Seen::authorized).count();
            assertThat(passed).isEqualTo(site.counter.total.get()).isEqualTo(16); // 15 pages and robots.txt
            assertThat(r.out() + r.err()).doesNotContain("s3cret");
        }
    }

    @Test
    void aWrongPasswordFailsTheUrlSayingWhyAndIsNeverShown(@TempDir Path dir) throws Exception {
        try (TestSite site = new TestSite().tree(3, 0); TestProxy proxy = new TestProxy("crawler", PASSWORD)) {
            CrawlCommandTest.Result r = CrawlCommandTest.run("crawl", site.url("/p/0"), "--json", "--quiet",
                    "--ignore-robots", "--proxy=http://crawler:wrong-guess@127.0.0.1:" + proxy.port(),
                    "--db=jdbc:h2:" + dir.resolve("db"));

            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out()).contains("the proxy refused its user and password (HTTP 407)");
            assertThat(site.counter.total.get()).isZero();
            assertThat(proxy.seen).isNotEmpty().noneMatch(TestProxy.Seen::authorized);
            assertThat(r.out() + r.err()).doesNotContain("wrong-guess");
        }
    }

    /** A proxy that cannot be reached is named as the one refusing, not the site behind it. */
    @Test
    void aProxyThatCannotBeReachedIsNamed(@TempDir Path dir) throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        try (TestSite site = new TestSite().tree(3, 0)) {
            CrawlCommandTest.Result r = CrawlCommandTest.run("crawl", site.url("/p/0"), "--json", "--quiet",
                    "--proxy=http://crawler:s3cret%3Apass@127.0.0.1:" + closed,
                    "--db=jdbc:h2:" + dir.resolve("db"));

            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.out()).contains("the proxy 127.0.0.1:" + closed + " could not be reached");
            assertThat(site.counter.total.get()).isZero();
            assertThat(r.out() + r.err()).doesNotContain("s3cret");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            https://u:hunter2@proxy.test:3128 | --proxy must be an http:// proxy URL
            socks5://proxy.test:1080          | --proxy must be an http:// proxy URL
            http://u:hunter2@proxy.test/x     | --proxy must name only a host and port
            proxy.test:3128                   | --proxy must be an http:// proxy URL
            https://u:hun@ter2/x@proxy.test:1 | --proxy must be an http:// proxy URL
            """)
    void aProxyThatIsNoHttpProxyUrlIsOneLineAndExitCodeTwo(String proxy, String message) {
        CrawlCommandTest.Result r = CrawlCommandTest.run("crawl", "--proxy=" + proxy, "--db=jdbc:h2:mem:proxy",
                "http://example.test/");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains(message).doesNotContain("hunter2", "ter2", "Exception");
    }
}
