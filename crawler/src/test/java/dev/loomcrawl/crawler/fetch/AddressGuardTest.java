package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolver.LookupPolicy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The private-address guard sits in the lookup the HTTP client makes to connect, so the address checked is the
 * address connected to: a DNS answer that turns private after a first, public one (DNS rebinding) is refused.
 */
class AddressGuardTest {

    @Test
    void isTheResolverOfTheProcessWithTheTestLabsChainedBehindIt() throws UnknownHostException {
        assertThat(AddressGuard.installed()).isTrue();
        // the farm's names still resolve: the next provider on the class path answers them
        assertThat(InetAddress.getByName("x.a7.loomcrawl.test").getHostAddress()).isEqualTo("127.0.0.7");
    }

    /** The client resolves the name itself; under the guard that lookup is refused, and nothing is sent. */
    @Test
    void theClientsOwnLookupIsChecked() throws Exception {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        try (HttpClient client = HttpClient.newHttpClient()) {
            String name = "guarded.loomcrawl.test"; // 127.0.0.1, by the farm's resolver
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + name + ":" + server.port() + "/")).build();
            try (AddressGuard.Guarded guarded = AddressGuard.guard(name)) {
                assertThatThrownBy(() -> client.send(request, HttpResponse.BodyHandlers.discarding()))
                        .isInstanceOf(IOException.class);
                assertThat(guarded.refusal()).isEqualTo("refused: " + name + " resolves to private address 127.0.0.1");
            }
            assertThat(server.getAllServeEvents()).isEmpty();
            // another name on the same address, unguarded, is served: the guard binds only the names it guards
            HttpRequest open = HttpRequest.newBuilder(URI.create("http://open.loomcrawl.test:" + server.port() + "/")).build();
            assertThat(client.send(open, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
        } finally {
            server.stop();
        }
    }

    /** A name answered first with a public address, then with a private one, is refused at the second answer. */
    @Test
    void anAnswerThatTurnsPrivateIsRefused() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        InetAddressResolver flipping = new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                byte[] address = asked.getAndIncrement() == 0 ? new byte[] {(byte) 198, 51, 100, 7} : new byte[] {10, 0, 0, 7};
                return Stream.of(InetAddress.getByAddress(host, address));
            }

            @Override
            public String lookupByAddress(byte[] addr) {
                throw new UnsupportedOperationException();
            }
        };
        InetAddressResolver guardedResolver = AddressGuard.resolver(flipping);
        LookupPolicy v4 = LookupPolicy.of(LookupPolicy.IPV4);
        try (AddressGuard.Guarded guarded = AddressGuard.guard("rebinding.example")) {
            assertThat(guardedResolver.lookupByName("rebinding.example", v4).map(InetAddress::getHostAddress))
                    .containsExactly("198.51.100.7");
            assertThatThrownBy(() -> guardedResolver.lookupByName("rebinding.example", v4))
                    .isInstanceOf(UnknownHostException.class)
                    .hasMessage("refused: rebinding.example resolves to private address 10.0.0.7");
        }
        assertThat(guardedResolver.lookupByName("rebinding.example", v4).map(InetAddress::getHostAddress))
                .containsExactly("10.0.0.7"); // unguarded: answered as it is
    }

    /** What the guard calls private: every range no public server answers on, and the same inside IPv6. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} private: {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            127.0.0.1          | true
            127.255.255.254    | true
            10.0.0.1           | true
            172.16.0.1         | true
            172.31.255.255     | true
            192.168.1.1        | true
            169.254.169.254    | true
            0.0.0.0            | true
            0.0.0.1            | true
            100.64.0.1         | true
            100.127.255.255    | true
            192.0.0.8          | true
            198.18.0.1         | true
            198.19.255.255     | true
            224.0.0.1          | true
            240.0.0.1          | true
            255.255.255.255    | true
            ::1                | true
            ::                 | true
            fe80::1            | true
            fc00::1            | true
            fd12:3456::1       | true
            ff02::1            | true
            ::ffff:10.0.0.1    | true
            64:ff9b::a00:1     | true
            2002:c0a8:101::1   | true
            8.8.8.8            | false
            172.32.0.1         | false
            100.128.0.1        | false
            198.20.0.1         | false
            192.0.2.1          | false
            2001:4860::8888    | false
            64:ff9b::808:808   | false
            2002:808:808::1    | false
            """)
    void knowsWhatIsPrivate(String literal, boolean expected) throws UnknownHostException {
        assertThat(HostNames.isPrivate(InetAddress.getByName(literal))).isEqualTo(expected);
    }
}
