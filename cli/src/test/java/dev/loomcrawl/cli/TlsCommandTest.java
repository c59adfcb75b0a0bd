package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.testkit.TestSite;
import java.io.IOException;
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
    private static final String PASSWORD = "changeit";
    @TempDir
    static Path keys;

    @BeforeAll
    static void certificates() throws Exception {
        certificate("site", "ip:127.0.0.1");
        certificate("misnamed", "dns:other.test");
    }

    /** {@code NAME.p12} with a self-signed certificate for {@code san}, and the certificate alone in {@code NAME.pem}. */
    private static void certificate(String name, String san) throws IOException, InterruptedException {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        String store = keys.resolve(name + ".p12").toString();
        run(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=" + name, "-ext", "san=" + san, "-validity", "2", "-keystore", store, "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        run(keytool, "-exportcert", "-rfc", "-alias", name, "-keystore", store, "-storepass", PASSWORD, "-file",
                keys.resolve(name + ".pem").toString());
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
    }

    private static CrawlCommandTest.Result crawl(TestSite site, Path dir, String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of("crawl", site.url("/p/0"), "--json", "--quiet",
                "--db=jdbc:h2:" + dir.resolve("db")));
        args.addAll(List.of(flags));
        return CrawlCommandTest.run(args.toArray(String[]::new));
    }

    @Test
    void aSelfSignedSiteFailsAsTlsUntilItsCertificateIsGiven(@TempDir Path dir) throws Exception {
        try (TestSite site = TestSite.https(keys.resolve("site.p12"), PASSWORD).tree(7, 0)) {
            CrawlCommandTest.Result refused = crawl(site, dir.resolve("a"));
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.out()).contains("\"tls\"").contains("signed by no authority trusted here");
            assertThat(site.counter.requests("/p/0")).isZero();

            CrawlCommandTest.Result trusted = crawl(site, dir.resolve("b"), "--ca-cert=" + keys.resolve("site.pem"));
            assertThat(trusted.exit()).as(trusted.err()).isZero();
            assertThat(trusted.out()).contains("\"pages\":7");
        }
    }

    @Test
    void aGivenCertificateStillHasToNameTheSiteAndInsecureAsksNeither(@TempDir Path dir) throws Exception {
        try (TestSite site = TestSite.https(keys.resolve("misnamed.p12"), PASSWORD).tree(7, 0)) {
            CrawlCommandTest.Result misnamed = crawl(site, dir.resolve("a"), "--ca-cert=" + keys.resolve("misnamed.pem"));
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
