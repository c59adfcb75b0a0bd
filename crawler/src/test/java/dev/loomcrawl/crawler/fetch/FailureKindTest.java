package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.testkit.TestSite;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A failed exchange's kind comes from the types in its exception's chain, never from its message. */
class FailureKindTest {
    private TestSite site;
    private SiteFetcher fetcher;

    @BeforeEach
    void start() {
        site = new TestSite();
        for (Fault fault : Fault.values()) {
            site.stub("/" + fault.name(), WireMock.aResponse().withFault(fault));
        }
        fetcher = new SiteFetcher(site);
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    private FailureKind kindOf(String url) throws InterruptedException {
        FetchResult result = fetcher.fetch(url);
        assertThat(result).isInstanceOf(FetchResult.Failed.class);
        return ((FetchResult.Failed) result).kind();
    }

    /** The JDK client wraps each in a plain IOException; the cause says what happened. */
    @ParameterizedTest
    @CsvSource({
        "CONNECTION_RESET_BY_PEER, RESET", // SocketException
        "EMPTY_RESPONSE, RESET",           // EOFException: closed before a byte
        "RANDOM_DATA_THEN_CLOSE, RESET",   // EOFException after garbage
        "MALFORMED_RESPONSE_CHUNK, IO",    // a plain IOException: nothing but its message says more
    })
    void faultsOfTheServer(Fault fault, FailureKind kind) throws Exception {
        assertThat(kindOf(site.url("/" + fault.name()))).isEqualTo(kind);
    }

    @Test
    void aRefusedConnectionIsConnect() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertThat(kindOf("http://127.0.0.1:" + closed + "/")).isEqualTo(FailureKind.CONNECT);
    }

    @Test
    void aMessageAloneDecidesNothing() {
        assertThat(Failures.classify(new IOException("Connection reset while parsing a bad chunk header")))
                .isEqualTo(FailureKind.IO);
        assertThat(Failures.classify(new IOException("wrapped", new java.net.SocketException("x"))))
                .isEqualTo(FailureKind.RESET);
    }
}
