package dev.loomcrawl.crawler.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.PageRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's pages are listed (by {@code /pages} and {@code export}) a slice at a time: in the order they were
 * stored on an H2 database this version made, by URL on one made earlier. On H2 that order must come from
 * reading an index in order: a sort instead reads every row of the job for each slice.
 */
class PageListingTest {

    static PageRecord page(long job, String url, int status) {
        return new PageRecord(job, url, 1, status, "text/html", "t", 10, 1.5, 1, null, null, Instant.now(), "crawl-vt-1",
                null, List.of(), Map.of(), null, null, 2.0, null, null, null, null, null, false);
    }

    /** An H2 database as an earlier version made it: pages keyed by URL. */
    static void urlKeyedPages(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("""
                    CREATE TABLE pages (job_id BIGINT NOT NULL, url VARCHAR(4096) NOT NULL, depth INT NOT NULL,
                      status INT NOT NULL, content_type VARCHAR(256), title VARCHAR(1024), bytes INT NOT NULL,
                      fetch_ms DOUBLE PRECISION NOT NULL, failure VARCHAR(32), detail VARCHAR(1024),
                      fetched_at TIMESTAMP WITH TIME ZONE NOT NULL, thread VARCHAR(64), PRIMARY KEY (job_id, url))""");
        }
    }

    @ParameterizedTest(name = "keyed by hash: {0}, filtered by status: {1}")
    @CsvSource({"true, false", "true, true", "false, false", "false, true"})
    void h2ReadsTheListingInKeyOrderWithoutSorting(boolean hashKey, boolean byStatus, @TempDir Path dir)
            throws Exception {
        String url = "jdbc:h2:" + dir.resolve("plan");
        if (!hashKey) {
            urlKeyedPages(url);
        }
        PageStore.open(url).close(); // today's schema, or the earlier one migrated
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             PreparedStatement explain = c.prepareStatement("EXPLAIN " + PageReads.pagesSql(byStatus, hashKey))) {
            int i = 1;
            explain.setLong(i++, 1);
            if (byStatus) {
                explain.setInt(i++, 200);
            }
            explain.setInt(i++, 100);
            explain.setInt(i, 0);
            try (ResultSet plan = explain.executeQuery()) {
                assertThat(plan.next()).isTrue();
                assertThat(plan.getString(1)).contains("/* index sorted */");
            }
        }
    }

    /**
     * Slices of one job follow each other in order, every row once, with none of another job's rows among them:
     * in the order they were stored on a new database (like {@code crawl --output}), by URL on one an earlier
     * version made.
     */
    @ParameterizedTest(name = "keyed by hash: {0}")
    @ValueSource(booleans = {true, false})
    void slicesOfAJobFollowEachOtherInOrder(boolean hashKey, @TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("listing");
        if (!hashKey) {
            urlKeyedPages(url);
        }
        try (PageStore store = PageStore.open(url)) {
            List<PageRecord> rows = new ArrayList<>();
            for (String path : List.of("m", "c", "x", "a", "q", "f", "b")) {
                rows.add(page(2, "http://a.test/" + path, path.equals("q") ? 404 : 200));
                rows.add(page(path.compareTo("f") < 0 ? 1 : 3, "http://a.test/" + path, 200)); // the other jobs' rows around them
            }
            // Two writes, each page stored after the rows skipped with it: q, f, b, a, then c, x, m.
            store.saveWithLinks(rows.get(6), List.of(), rows.subList(7, rows.size()));
            store.saveWithLinks(rows.get(0), List.of(), rows.subList(1, 6));
            store.flush();

            List<String> listed = new ArrayList<>();
            for (int offset = 0; offset < 9; offset += 3) {
                store.pages(2, offset, 3, null).forEach(p -> listed.add(p.url().substring("http://a.test/".length())));
            }
            List<String> byStatus = store.pages(2, 1, 10, 200).stream()
                    .map(p -> p.url().substring("http://a.test/".length())).toList();
            if (hashKey) {
                assertThat(listed).containsExactly("q", "f", "b", "a", "c", "x", "m");
                assertThat(byStatus).containsExactly("b", "a", "c", "x", "m"); // q is a 404
            } else {
                assertThat(listed).containsExactly("a", "b", "c", "f", "m", "q", "x");
                assertThat(byStatus).containsExactly("b", "c", "f", "m", "x");
            }
        }
    }
}
