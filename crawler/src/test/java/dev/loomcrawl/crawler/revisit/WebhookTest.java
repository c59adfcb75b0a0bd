package dev.loomcrawl.crawler.revisit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.fetch.WebhookClient;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.TlsTrust;
import dev.loomcrawl.crawler.values.WebhookStatus;
import dev.loomcrawl.testkit.Certificates;
import dev.loomcrawl.testkit.TestSite;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Change events POSTed to a real receiver on loopback: signed, in order, retried, none lost across a restart. */
class WebhookTest {
    private static final AtomicLong DB = new AtomicLong();
    private PageStore store;
    private Crawler crawler;
    private WebhookReceiver receiver;

    @BeforeEach
    void open() throws Exception {
        store = PageStore.open("jdbc:h2:mem:webhook" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
        receiver.close();
    }

    private List<Long> storedIds(long job) {
        return store.changes().after(job, 0, 100_000).stream().map(Change::id).toList();
    }

    private List<Long> receivedIds() {
        return receiver.ids();
    }

    @Test
    void everyEventArrivesSignedInOrderAfterTheReceiverFails() throws Exception {
        receiver.failFirst.set(2); // the first two deliveries fail: sent again after a backoff, and nothing overtakes them
        receiver.retryAfter = "3"; // longer than the backoffs (1 s, then 2 s): obeyed
        try (TestSite site = new TestSite()) {
            site.tree(6, 0);
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).webhook(receiver.url(), WebhookReceiver.SECRET).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> storedIds(job.id()).size() >= 10
                    && receivedIds().size() >= 10);
            job.cancel();
            job.awaitSummary(); // an ended job delivers what is left first
            assertThat(receivedIds()).isEqualTo(storedIds(job.id())); // all, in order, once each (none was lost)
            assertThat(receiver.badSignatures).hasValue(0);
            JsonNode first = receiver.received.peek();
            assertThat(first.get("kind").asText()).isEqualTo("new");
            assertThat(first.get("job").asLong()).isEqualTo(job.id());
            assertThat(store.changes().delivered(job.id())).isEqualTo(storedIds(job.id()).getLast());
            List<Long> at = List.copyOf(receiver.arrivals);
            assertThat(at.get(1) - at.get(0)).as("the first try's Retry-After").isGreaterThanOrEqualTo(2_900_000_000L);
            assertThat(at.get(2) - at.get(1)).as("the second try's Retry-After").isGreaterThanOrEqualTo(2_900_000_000L);
        }
    }

    @Test
    void aResumedJobDeliversFromWhereItStopped() throws Exception {
        try (TestSite site = new TestSite()) {
            site.tree(6, 0);
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).webhook(receiver.url(), WebhookReceiver.SECRET).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().size() >= 6);
            receiver.failFirst.set(Integer.MAX_VALUE); // the receiver goes down: events pile up in the store
            // Events pile up in the store as soon as the receiver is down, before a delivery has failed: wait for both
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                WebhookStatus status = store.changes().webhook(job.id());
                return status.failing() != null && status.pending() > 3;
            });
            WebhookStatus failing = store.changes().webhook(job.id()); // told, as every node and the API read it
            assertThat(failing.failing()).isEqualTo("answered HTTP 500");
            assertThat(failing.tries()).isPositive();
            assertThat(failing.failingSince()).isNotNull();
            assertThat(failing.delivered()).isEqualTo(receivedIds().getLast());
            assertThat(failing.pending()).isGreaterThan(3);
            crawler.close(); // suspended with events undelivered
            receiver.failFirst.set(0);

            crawler = new Crawler(store);
            CrawlJob resumed = crawler.resume(job.id());
            List<Long> before = storedIds(job.id());
            await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds().containsAll(before));
            resumed.cancel();
            resumed.awaitSummary();
            List<Long> ids = receivedIds();
            assertThat(ids).isSorted(); // in order across the restart
            assertThat(ids.stream().distinct().toList()).isEqualTo(storedIds(job.id())); // nothing lost
            assertThat(store.changes().webhook(job.id())).isEqualTo(new WebhookStatus(ids.getLast(), 0, null, null, 0));
        }
    }

    /**
     * A receiver on https whose certificate no authority signed: refused, and told why, while the crawl trusts only
     * the JDK's authorities; its events taken once the crawl trusts the certificate ({@code --ca-cert}), as the
     * crawl's own requests are.
     */
    @Test
    void anHttpsReceiverIsTrustedAsTheCrawlTrustsItsSites(@TempDir Path keys) throws Exception {
        Certificates.Certificate certificate = Certificates.selfSigned(keys, "receiver", "ip:127.0.0.1");
        try (TestSite site = new TestSite(); WebhookReceiver https = new WebhookReceiver(certificate)) {
            site.tree(6, 0);
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).webhook(https.url(), WebhookReceiver.SECRET).build());
            await().atMost(Duration.ofSeconds(30)).until(() -> store.changes().webhook(job.id()).failing() != null);
            assertThat(store.changes().webhook(job.id()).failing())
                    .startsWith("tls: the server's certificate is signed by no authority trusted here");
            assertThat(https.ids()).isEmpty();
            crawler.close();

            crawler = new Crawler(store, CrawlerOptions.DEFAULTS.tls(TlsTrust.alsoFrom(certificate.pem())));
            CrawlJob resumed = crawler.resume(job.id());
            await().atMost(Duration.ofSeconds(30)).until(() -> https.ids().size() >= 6);
            resumed.cancel();
            resumed.awaitSummary();
            assertThat(https.ids()).isEqualTo(storedIds(job.id()));
            assertThat(https.badSignatures).hasValue(0);
            assertThat(store.changes().webhook(job.id()).failing()).isNull();
        }
    }

    /**
     * A job that refuses private addresses refuses them at each delivery, not only when it is made: a receiver's
     * name can come to resolve to one later. Its path, where receivers keep their tokens, is never in the words.
     */
    @Test
    void aDeliveryUnderThePrivateAddressGuardIsRefused() throws Exception {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        URI url = URI.create(receiver.url() + "/T0KEN");
        try (WebhookClient guarded = new WebhookClient(TlsTrust.JDK, true);
                WebhookClient open = new WebhookClient(TlsTrust.JDK, false)) {
            WebhookClient.Refused refused = guarded.post(url, Map.of(), body, Duration.ofSeconds(5));
            assertThat(refused.why()).contains("refused").contains("127.0.0.1").doesNotContain("T0KEN");
            assertThat(receiver.received).isEmpty();
            assertThat(open.post(url, Map.of(), body, Duration.ofSeconds(5))).isNull();
            assertThat(receiver.received).hasSize(1);
        }
    }
}
