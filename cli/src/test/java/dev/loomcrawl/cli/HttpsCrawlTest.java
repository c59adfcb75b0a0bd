package dev.loomcrawl.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code https://} site crawled by a real {@code crawl} process: the TLS context the HTTP clients make on
 * first use is the JDK's default one, so it trusts what the JDK's trust store trusts, here a certificate made
 * for the test and named with {@code -Djavax.net.ssl.trustStore}, and nothing else.
 */
class HttpsCrawlTest {
    private static final String PASSWORD = "changeit";
    @TempDir
    static Path dir;
    private static Path trustStore;
    private static WireMockServer site;

    @BeforeAll
    static void startSite() throws Exception {
        Path keyStore = dir.resolve("site.p12");
        Path cert = dir.resolve("site.crt");
        trustStore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "site", "-keyalg", "EC", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore", keyStore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "site", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "site", "-file", cert.toString(), "-keystore",
                trustStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        site = new WireMockServer(options().bindAddress("127.0.0.1").httpDisabled(true).dynamicHttpsPort()
                .keystorePath(keyStore.toString()).keystoreType("PKCS12").keystorePassword(PASSWORD)
                .keyManagerPassword(PASSWORD));
        site.start();
        site.stubFor(get(urlPathEqualTo("/robots.txt")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/plain").withBody("User-agent: *\nDisallow: /private\n")));
        site.stubFor(get(urlPathEqualTo("/")).willReturn(html("<title>Home</title><a href=\"/a\">a</a> <a href=\"/private\">p</a>")));
        site.stubFor(get(urlPathEqualTo("/a")).willReturn(html("<title>A</title>")));
    }

    @AfterAll
    static void stopSite() {
        site.stop();
    }

    @Test
    void aSiteWithACertificateTheTrustStoreHoldsIsCrawled() throws Exception {
        site.resetRequests();
        JsonNode summary = crawl(List.of("-Djavax.net.ssl.trustStore=" + trustStore,
                "-Djavax.net.ssl.trustStorePassword=" + PASSWORD), "trusted", 0);

        assertThat(summary.get("pages").asInt()).isEqualTo(2);
        assertThat(summary.get("failed").asInt()).isZero();
        assertThat(summary.get("skips").get("robots").asInt()).isEqualTo(1);
        site.verify(1, getRequestedFor(urlPathEqualTo("/a")));
    }

    @Test
    void aSiteWithACertificateTheTrustStoreDoesNotHoldIsAFailureNotAPage() throws Exception {
        site.resetRequests();
        JsonNode summary = crawl(List.of(), "untrusted", 1); // the JDK's own trust store: no such certificate; no page

        // robots.txt's handshake fails; the host is given up at once (asking again meets the same certificate),
        // and its seed is recorded as failed with the kind that says why.
        assertThat(summary.get("pages").asInt()).isZero();
        assertThat(summary.get("failures").get("tls").asInt()).as(summary.toString()).isEqualTo(1);
        assertThat(site.getAllServeEvents()).isEmpty(); // no request got past the handshake
    }

    /** A whole {@code crawl} process of the site, which exits with {@code exitCode}; its one-line JSON summary. */
    private static JsonNode crawl(List<String> jvmOptions, String name, int exitCode) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "crawl",
                "https://localhost:" + site.httpsPort() + "/", "--max-depth=1", "--json", "--quiet",
                "--db=jdbc:h2:" + dir.resolve(name)));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(exitCode);
        return new ObjectMapper().readTree(out);
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder html(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "text/html; charset=UTF-8").withBody(body);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
