package dev.loomcrawl.crawler.store;

import static dev.loomcrawl.crawler.store.PageListingTest.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.loomcrawl.crawler.values.PageRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pages of an H2 database this version made are keyed by a hash of the URL ({@link UrlKey}); two URLs with
 * one hash must both be stored, each once, found again by a depth fix and a resume. Real hash collisions are
 * too rare to meet in a test, so other URLs' rows are planted at the keys a URL's chain runs through.
 */
class UrlKeyTest {
    private static final String URL = "http://a.test/";

    /** The hash is stored in databases: these values must never change. */
    @ParameterizedTest
    @CsvSource({"http://a.test/, 3578458628267544509", "'https://example.com/a?b=c', 3198758988791534061",
            "http://h0.loomcrawl.test/p/1, 4375561324350946066", "http://xn--bcher-kva.test/é, 86638424790289430"})
    void theHashNeverChanges(String url, long hash) {
        assertThat(UrlKey.hash(url)).isEqualTo(hash).isNotNegative();
    }

    @Test
    void aUrlWhoseHashIsTakenIsStoredOnceAtTheChainsNextFreeKey(@TempDir Path dir) throws Exception {
        long h = UrlKey.hash(URL);
        // Another URL at the hash, and one after it: the chain is two long; the third is past a gap, not in it.
        String db = databaseWith(dir, Map.of("http://other.test/1", h, "http://other.test/2", h + 1,
                "http://other.test/3", h + 3));
        try (PageStore store = PageStore.open(db)) {
            // In one write: the URL, then the URL again (a repeat, dropped: the first row stays).
            store.saveWithLinks(withTitle(page(1, URL, 200), "second"), List.of(),
                    List.of(withTitle(page(1, URL, 200), "first")));
            store.flush();
            store.saveWithLinks(withTitle(page(1, URL, 200), "third"), List.of(), List.of()); // a later repeat
            store.lowerDepth(1, URL, 0); // the URL's row at the end of the chain, none of the others
            store.flush();

            assertThat(keys(store)).containsExactly(Map.entry(h, "http://other.test/1"), Map.entry(h + 1,
                    "http://other.test/2"), Map.entry(h + 2, URL), Map.entry(h + 3, "http://other.test/3"));
            assertThat(store.pages(1, 0, 10, null)).filteredOn(p -> p.url().equals(URL)).singleElement()
                    .satisfies(p -> assertThat(p.title()).isEqualTo("first"))
                    .satisfies(p -> assertThat(p.depth()).isZero());
            assertThat(store.pages(1, 0, 10, null)).filteredOn(p -> p.url().startsWith("http://other.test/"))
                    .extracting(PageRecord::url, PageRecord::depth, PageRecord::status).containsExactlyInAnyOrder(
                            tuple("http://other.test/1", 1, 200),
                            tuple("http://other.test/2", 1, 200),
                            tuple("http://other.test/3", 1, 200));
            assertThat(store.resumeState(1).stored()).contains(URL, "http://other.test/1", "http://other.test/2");
            try (Connection c = store.dataSource().getConnection();
                 PreparedStatement chain = c.prepareStatement(UrlKey.CHAIN_SQL)) {
                assertThat(UrlKey.find(chain, 1, URL)).isEqualTo(new UrlKey.Slot(h + 2, true));
                assertThat(UrlKey.find(chain, 2, URL)).isEqualTo(new UrlKey.Slot(h, false));
            }
        }
    }

    /** A chain longer than one read of the finder's (eight keys) is followed to its end. */
    @Test
    void aLongChainIsFollowedToItsEnd(@TempDir Path dir) throws Exception {
        long h = UrlKey.hash(URL);
        Map<String, Long> chain = new TreeMap<>();
        for (int i = 0; i < 19; i++) {
            chain.put("http://other.test/" + i, h + i);
        }
        String db = databaseWith(dir, chain);
        try (PageStore store = PageStore.open(db)) {
            store.saveWithLinks(page(1, URL, 200), List.of(), List.of());
            store.saveWithLinks(page(1, URL, 200), List.of(), List.of());
            store.flush();
            assertThat(keys(store)).hasSize(20).containsEntry(h + 19, URL);
        }
    }

    private static PageRecord withTitle(PageRecord p, String title) {
        return new PageRecord(p.jobId(), p.url(), p.depth(), p.status(), p.contentType(), title, p.bytes(),
                p.fetchMillis(), p.attempts(), p.failure(), p.detail(), p.fetchedAt(), p.thread(), p.referrer(),
                p.outlinks(), p.fields(), p.canonical(), p.body(), p.pageMillis(), p.etag(), p.lastModified(), p.digest(),
                p.simhash(), null, false);
    }

    /** A new database with rows of job 1 planted at the given keys, each URL's own hash aside. */
    private static String databaseWith(Path dir, Map<String, Long> planted) throws Exception {
        String db = "jdbc:h2:" + dir.resolve("planted");
        PageStore.open(db).close();
        try (Connection c = DriverManager.getConnection(db, "sa", "");
             PreparedStatement ps = c.prepareStatement("INSERT INTO pages (job_id, url, depth, status, bytes,"
                     + " fetch_ms, fetched_at, url_hash) VALUES (1, ?, 1, 200, 0, 0, CURRENT_TIMESTAMP, ?)")) {
            for (Map.Entry<String, Long> row : planted.entrySet()) {
                ps.setString(1, row.getKey());
                ps.setLong(2, row.getValue());
                ps.executeUpdate();
            }
        }
        return db;
    }

    /** Job 1's rows by key. */
    private static Map<Long, String> keys(PageStore store) throws Exception {
        Map<Long, String> keys = new TreeMap<>();
        try (Connection c = store.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT url_hash, url FROM pages WHERE job_id = 1")) {
            while (rs.next()) {
                keys.put(rs.getLong(1), rs.getString(2));
            }
        }
        return keys;
    }
}
