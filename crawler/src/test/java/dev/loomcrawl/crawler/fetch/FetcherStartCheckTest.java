package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.loomcrawl.testkit.TestSite;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fetch's start check is asked as the request is about to leave, once per request, and a "no" sends
 * nothing: the server sees no request, and the fetcher says so with {@link Fetcher.NotSent}.
 */
class FetcherStartCheckTest {
    private SiteFetcher fetcher;
    private TestSite site;

    @BeforeEach
    void start() {
        fetcher = new SiteFetcher(new TestSite().stub("/a", TestSite.html("<p>a</p>"))
                .stub("/b", TestSite.html("<p>b</p>"))
                .stub("/empty", WireMock.aResponse().withFault(Fault.EMPTY_RESPONSE)));
        site = fetcher.site;
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    @Test
    void aNoSendsNothing() {
        AtomicInteger asked = new AtomicInteger();
        assertThatThrownBy(() -> fetcher.page("/a", () -> {
            asked.incrementAndGet();
            return false;
        })).isInstanceOf(Fetcher.NotSent.class);
        assertThat(asked).hasValue(1);
        assertThat(site.counter.total).hasValue(0);
    }

    @Test
    void aYesSendsTheRequestAndANoOnTheSameConnectionSendsNothingMore() throws Exception {
        AtomicBoolean may = new AtomicBoolean(true);
        AtomicInteger asked = new AtomicInteger();
        FetchResult first = fetcher.page("/a", () -> {
            asked.incrementAndGet();
            return may.get();
        });
        assertThat(first).isInstanceOfSatisfying(FetchResult.Response.class, r -> assertThat(r.status()).isEqualTo(200));
        assertThat(asked).as("asked once, as the request left").hasValue(1);

        may.set(false); // the second request would reuse the pooled connection: the check still runs first
        assertThatThrownBy(() -> fetcher.page("/b", may::get))
                .isInstanceOf(Fetcher.NotSent.class);
        assertThat(site.counter.total).hasValue(1);
        assertThat(site.counter.requests("/b")).isZero();

        may.set(true); // and the fetcher goes on: the refused exchange's connection was closed, a new one opens
        FetchResult third = fetcher.page("/b", may::get);
        assertThat(third).isInstanceOfSatisfying(FetchResult.Response.class, r -> assertThat(r.status()).isEqualTo(200));
        assertThat(site.counter.requests("/b")).isOne();
    }

    @Test
    void theClientsOwnRetryIsAskedToo() {
        // The JDK client sends a GET again, by itself, when the connection closes before any answer. That
        // second request must pass the check as well: here the lease "runs out" after the first.
        AtomicInteger asked = new AtomicInteger();
        assertThatThrownBy(() -> fetcher.page("/empty", () -> asked.incrementAndGet() == 1))
                .isInstanceOf(Fetcher.NotSent.class);
        assertThat(asked).hasValue(2);
        assertThat(site.counter.requests("/empty")).isOne();
    }
}
