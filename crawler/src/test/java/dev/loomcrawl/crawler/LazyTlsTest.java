package dev.loomcrawl.crawler;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

/** The HTTP clients' TLS context, made at the first {@code https://} connection: the JDK's default one. */
class LazyTlsTest {
    private static final Fetcher.Settings SETTINGS =
            Fetcher.Settings.of(CrawlConfig.builder().seed("http://localhost/").build());

    @Test
    void aClientIsBuiltAndSpeaksHttpWithoutItAndTheFirstHttpsRequestMakesIt() throws Exception {
        LazyTls tls = new LazyTls();
        WireMockServer server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort().dynamicHttpsPort());
        server.start();
        try (HttpClient client = CrawlHttpClients.newClient(SETTINGS.connectTimeout(), tls)) {
            server.stubFor(get("/").willReturn(ok("plain")));
            HttpResponse<String> plain = client.send(request("http://127.0.0.1:" + server.port() + "/"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.body()).isEqualTo("plain");
            assertThat(tls.made()).as("made by building the client or by a plain request").isFalse();

            // WireMock's certificate is its own, signed by no authority in the JDK's trust store: the handshake
            // is real, and checked against that store, as the default context checks it.
            assertThatThrownBy(() -> client.send(request("https://localhost:" + server.httpsPort() + "/"),
                    HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasMessageContaining("PKIX");
            assertThat(tls.made()).isTrue();
        } finally {
            server.stop();
        }
    }

    @Test
    void itsEnginesAreSetUpAsTheDefaultContextsEngines() throws Exception {
        SSLContext standard = SSLContext.getDefault();
        SSLEngine lazy = new LazyTls().createSSLEngine("example.com", 443);
        SSLEngine plain = standard.createSSLEngine("example.com", 443);
        lazy.setSSLParameters(asTheClientDoes(LazyTls.parameters()));
        plain.setSSLParameters(asTheClientDoes(standard.getDefaultSSLParameters()));

        SSLParameters got = lazy.getSSLParameters();
        SSLParameters want = plain.getSSLParameters();
        assertThat(got.getProtocols()).isEqualTo(want.getProtocols());
        assertThat(got.getCipherSuites()).isEqualTo(want.getCipherSuites());
        assertThat(got.getNamedGroups()).isEqualTo(want.getNamedGroups());
        assertThat(got.getSignatureSchemes()).isEqualTo(want.getSignatureSchemes());
        // The one difference: a packet size of 0, "the engine's own", where the default context's engines name
        // theirs (16,709 bytes, TLS's largest record). The engine's record writer keeps its size either way.
        assertThat(got.getMaximumPacketSize()).isZero();
        assertThat(want.getMaximumPacketSize()).isPositive();
        assertThat(got.getUseCipherSuitesOrder()).isEqualTo(want.getUseCipherSuitesOrder());
        assertThat(got.getEnableRetransmissions()).isEqualTo(want.getEnableRetransmissions());
        assertThat(got.getAlgorithmConstraints()).isEqualTo(want.getAlgorithmConstraints());
        assertThat(got.getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
    }

    /**
     * What the JDK's HTTP client does to its parameters for each TLS connection: copies them as its
     * {@code Utils.copySSLParameters} does (JDK 25), then asks for HTTP/1.1 and the host name's check.
     */
    private static SSLParameters asTheClientDoes(SSLParameters clients) {
        SSLParameters p = new SSLParameters();
        p.setAlgorithmConstraints(clients.getAlgorithmConstraints());
        p.setCipherSuites(clients.getCipherSuites());
        p.setEnableRetransmissions(clients.getEnableRetransmissions());
        p.setMaximumPacketSize(clients.getMaximumPacketSize());
        if (clients.getProtocols() != null) {
            p.setProtocols(clients.getProtocols());
        }
        p.setUseCipherSuitesOrder(clients.getUseCipherSuitesOrder());
        p.setEndpointIdentificationAlgorithm("HTTPS");
        p.setApplicationProtocols(new String[] {"http/1.1"});
        p.setServerNames(List.of(new SNIHostName("example.com")));
        return p;
    }

    private static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).build();
    }
}
