package dev.loomcrawl.crawler.revisit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.ClusterView;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PostgresServer;
import dev.loomcrawl.testkit.TestSite;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A continuous job on a cluster (two nodes in this JVM, one real PostgreSQL): the schedule lives in the database,
 * so the node that takes a host over revisits its URLs where the other left them; one event per visit, one
 * row per URL, and one node delivering the webhook. The kill -9 of a node is a CLI test (ClusterTest).
 */
class ClusterRevisitTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    /** A node of the cluster, around a crawler with its own store on {@code db}; closed once. */
    private static final class Node implements AutoCloseable {
        final PageStore store;
        final Crawler crawler;
        final ClusterNode node;
        private boolean closed;

        Node(String db, String id) {
            store = PageStore.open(db);
            crawler = new Crawler(store);
            node = ClusterNode.join(crawler, new NodeSettings(id, null, Duration.ofSeconds(6)));
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                node.close();
                crawler.close();
                store.close();
            }
        }
    }

    @Test
    void theNodeThatTakesAHostOverRevisitsItsUrlsAndEveryEventIsStoredAndDeliveredOnce() throws Exception {
        String db = postgres.newDatabase();
        try (TestSite site = new TestSite(); WebhookReceiver hook = new WebhookReceiver();
             Node a = new Node(db, "a"); Node b = new Node(db, "b")) {
            RevisitTest.site(site);
            CrawlJob job = a.node.start(CrawlConfig.builder().seed(site.url("/")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).fetchDeadline(Duration.ofSeconds(3))
                    .webhook(hook.url(), WebhookReceiver.SECRET).build());
            long id = job.id();
            await().atMost(Duration.ofSeconds(30)).until(() -> events(a.store, id).size() >= 6 && !owner(a).isEmpty());
            assertThat(events(a.store, id)).extracting(Change::kind).containsOnly(Change.Kind.NEW);

            // The node holding the site leaves (its hosts given back at once): the other revisits from the database.
            Node holder = owner(a).equals("a") ? a : b;
            Node other = holder == a ? b : a;
            holder.close();
            RevisitTest.change(site);
            PageStore left = other.store;
            await().atMost(Duration.ofSeconds(40)).until(() -> {
                Map<String, List<Change>> by = byPath(site, left, id);
                return RevisitTest.has(by, "/major", Change.Kind.CHANGED) && RevisitTest.has(by, "/minor", Change.Kind.CHANGED)
                        && RevisitTest.has(by, "/gone", Change.Kind.GONE) && RevisitTest.has(by, "/moved", Change.Kind.MOVED)
                        && RevisitTest.has(by, "/target", Change.Kind.NEW) && RevisitTest.has(by, "/same", Change.Kind.UNCHANGED);
            });
            assertThat(owner(other)).isEqualTo(other.node.nodeId());
            other.node.cancel(id);
            List<Long> stored = events(left, id).stream().map(Change::id).toList();
            await().atMost(Duration.ofSeconds(30)).until(() -> hook.ids().size() >= stored.size());

            Map<String, List<Change>> by = byPath(site, left, id);
            Change major = RevisitTest.last(by, "/major", Change.Kind.CHANGED);
            assertThat(major.severity()).isEqualTo("major");
            assertThat(RevisitTest.last(by, "/minor", Change.Kind.CHANGED).severity()).isEqualTo("minor");
            assertThat(RevisitTest.last(by, "/moved", Change.Kind.MOVED).target()).isEqualTo(site.url("/target"));
            assertThat(RevisitTest.last(by, "/same", Change.Kind.UNCHANGED).status()).isEqualTo(304);
            // One NEW per URL, however many nodes visited it; nothing after GONE or MOVED.
            by.forEach((path, events) -> assertThat(events.stream().filter(c -> c.kind() == Change.Kind.NEW))
                    .as(path).hasSize(1));
            assertThat(by.get("/gone").getLast().kind()).isEqualTo(Change.Kind.GONE);
            assertThat(by.get("/moved").getLast().kind()).isEqualTo(Change.Kind.MOVED);
            // One row per URL, rewritten in place by whichever node found the change.
            Map<String, PageRecord> rows = left.pages(id, 0, 100, null).stream()
                    .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), Function.identity()));
            assertThat(left.countPages(id, null)).isEqualTo(rows.size()).isEqualTo(7);
            assertThat(rows.get("/major").title()).isEqualTo("major v2");
            // The webhook: every event once, in order (one node delivered at a time), signed.
            assertThat(hook.ids()).isEqualTo(stored);
            assertThat(hook.badSignatures).hasValue(0);
        }
    }

    /** The node holding the test site's one host now. */
    private static String owner(Node node) {
        return node.node.view().leases().stream().map(ClusterView.LeaseRow::owner).findFirst().orElse("");
    }

    private static List<Change> events(PageStore store, long job) {
        return store.changes().after(job, 0, 10_000);
    }

    private static Map<String, List<Change>> byPath(TestSite site, PageStore store, long job) {
        return events(store, job).stream().collect(Collectors.groupingBy(c -> c.url().replace(site.url(""), "")));
    }
}
