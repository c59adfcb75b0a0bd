package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.testkit.TestSite;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How long the server took to answer ({@link FetchResult#answerNanos}, what a key's adaptive limit judges) is the
 * time to the response's headers: a body that takes long to come is the page's size and the link's, not the
 * server's load. The fetch time ({@link FetchResult#nanos}) runs to the body's last byte.
 */
class FetcherAnswerTest {
    private SiteFetcher fetcher;

    @BeforeEach
    void start() {
        fetcher = new SiteFetcher(new TestSite()
                .stub("/thinks", TestSite.html("<p>" + "x".repeat(4_000) + "</p>").withFixedDelay(600))
                .stub("/dribbles", TestSite.html("<p>" + "x".repeat(4_000) + "</p>").withChunkedDribbleDelay(5, 600))
                .stub("/busy", WireMock.aResponse().withStatus(503).withFixedDelay(600)));
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    @Test
    void aServerThatThinksAnswersLate() throws Exception {
        FetchResult r = fetcher.page("/thinks", () -> true);
        assertThat(r).isInstanceOf(FetchResult.Response.class);
        assertThat(millis(r.answerNanos())).isGreaterThanOrEqualTo(600).isLessThanOrEqualTo(millis(r.nanos()));
    }

    @Test
    void aBodyThatComesSlowlyIsNoLateAnswer() throws Exception {
        FetchResult r = fetcher.page("/dribbles", () -> true);
        assertThat(r).isInstanceOf(FetchResult.Response.class);
        assertThat(millis(r.nanos())).isGreaterThanOrEqualTo(400);
        assertThat(millis(r.answerNanos())).isLessThan(millis(r.nanos()) - 300);
    }

    @Test
    void anErrorStatusIsAnAnswerAndNoResponseIsNone() throws Exception {
        FetchResult busy = fetcher.page("/busy", () -> true);
        assertThat(busy).isInstanceOf(FetchResult.Failed.class);
        assertThat(millis(busy.answerNanos())).isGreaterThanOrEqualTo(600);
        assertThat(RetryPolicy.signal(busy).nanos()).isEqualTo(busy.answerNanos());
        FetchResult.Failed none = FetchResult.Failed.of(FailureKind.RESET, "reset", 5);
        assertThat(RetryPolicy.signal(none).nanos()).isZero();
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
