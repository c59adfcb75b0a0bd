package dev.loomcrawl.crawler.revisit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.testkit.TestSite;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
            await().atMost(Duration.ofSeconds(30)).until(() -> storedIds(job.id()).size() > receivedIds().size() + 3);
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
        }
    }
}
