package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.testkit.Certificates;
import dev.loomcrawl.testkit.TestSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --ca-cert} and {@code --insecure} against https sites whose certificates no authority signed, made here
 * with the JDK's own keytool: one for the address the site is on, one for another name.
 */
class TlsCommandTest {
    @TempDir
    static Path keys;
    private static Certificates.Certificate forTheSite;
    private static Certificates.Certificate forAnotherName;

    @BeforeAll
    static void certificates() throws Exception {
        forTheSite = Certificates.selfSigned(keys, "site", "ip:127.0.0.1");
        forAnotherName = Certificates.selfSigned(keys, "misnamed", "dns:other.test");
    }

    private static CrawlCommandTest.Result crawl(TestSite site, Path dir, String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of("crawl", site.url("/p/0"), "--json", "--quiet",
                "--db=jdbc:h2:" + dir.resolve("db")));
        args.addAll(List.of(flags));
        return CrawlCommandTest.run(args.toArray(String[]::new));
    }

    @Test
    void aSelfSignedSiteFailsAsTlsUntilItsCertificateIsGiven(@TempDir Path dir) throws Exception {
        try (TestSite site = TestSite.https(forTheSite.keyStore(), Certificates.PASSWORD).tree(7, 0)) {
            CrawlCommandTest.Result refused = crawl(site, dir.resolve("a"));
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.out()).contains("\"tls\"").contains("signed by no authority trusted here");
            assertThat(site.counter.requests("/p/0")).isZero();

            CrawlCommandTest.Result trusted = crawl(site, dir.resolve("b"), "--ca-cert=" + forTheSite.pem());
            assertThat(trusted.exit()).as(trusted.err()).isZero();
            assertThat(trusted.out()).contains("\"pages\":7");
        }
    }

    @Test
    void aGivenCertificateStillHasToNameTheSiteAndInsecureAsksNeither(@TempDir Path dir) throws Exception {
        try (TestSite site = TestSite.https(forAnotherName.keyStore(), Certificates.PASSWORD).tree(7, 0)) {
            CrawlCommandTest.Result misnamed = crawl(site, dir.resolve("a"), "--ca-cert=" + forAnotherName.pem());
            assertThat(misnamed.exit()).isEqualTo(1);
            assertThat(misnamed.out()).contains("\"tls\"").contains("the server's certificate is for another name");

            CrawlCommandTest.Result insecure = crawl(site, dir.resolve("b"), "--insecure");
            assertThat(insecure.exit()).as(insecure.err()).isZero();
            assertThat(insecure.out()).contains("\"pages\":7");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --ca-cert=/nonexistent/ca.pem           | --ca-cert cannot be read: /nonexistent/ca.pem: no such file
            --ca-cert=NOT_PEM                       | --ca-cert holds no certificate
            --insecure --ca-cert=/nonexistent/x.pem | --ca-cert and --insecure do not go together
            """)
    void aCertificateFlagThatCannotBeUsedIsOneLineAndExitCodeTwo(String flags, String message) throws Exception {
        Path notPem = Files.writeString(keys.resolve("not.pem"), "not a certificate\n");
        List<String> args = new java.util.ArrayList<>(List.of("crawl", "--db=jdbc:h2:mem:tls", "https://example.test/"));
        for (String flag : flags.split(" ")) {
            args.add(flag.replace("NOT_PEM", notPem.toString()));
        }
        CrawlCommandTest.Result r = CrawlCommandTest.run(args.toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomcrawl: ").contains(message).doesNotContain("Exception");
    }
}
