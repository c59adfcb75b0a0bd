package dev.loomcrawl.crawler.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job's pages are listed (by {@code /pages} and {@code export}) a slice at a time in URL order. On H2 that
 * order must come from reading the key in order: a sort instead reads every row of the job for each slice.
 */
class PageListingTest {

    private static PageRecord page(long job, String url, int status) {
        return new PageRecord(job, url, 1, status, "text/html", "t", 10, 1.5, 1, null, null, Instant.now(), "crawl-vt-1",
                null, List.of(), Map.of(), null, null, 2.0);
    }

    @ParameterizedTest(name = "filtered by status: {0}")
    @ValueSource(booleans = {false, true})
    void h2ReadsTheListingInKeyOrderWithoutSorting(boolean byStatus, @TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("plan");
        PageStore.open(url).close(); // today's schema
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             PreparedStatement explain = c.prepareStatement("EXPLAIN " + PageStore.pagesSql(byStatus))) {
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

    /** Slices of one job follow each other in URL order, with none of another job's rows among them. */
    @Test
    void slicesOfAJobFollowEachOtherInUrlOrder() throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:mem:listing;DB_CLOSE_DELAY=-1")) {
            List<PageRecord> rows = new ArrayList<>();
            for (String path : List.of("m", "c", "x", "a", "q", "f", "b")) {
                rows.add(page(2, "http://a.test/" + path, path.equals("q") ? 404 : 200));
                rows.add(page(path.compareTo("f") < 0 ? 1 : 3, "http://a.test/" + path, 200)); // the other jobs' rows around them
            }
            store.saveWithLinks(rows.getFirst(), List.of(), rows.subList(1, rows.size()));
            store.flush();

            List<String> listed = new ArrayList<>();
            for (int offset = 0; offset < 9; offset += 3) {
                store.pages(2, offset, 3, null).forEach(p -> listed.add(p.url()));
            }
            assertThat(listed).containsExactly("http://a.test/a", "http://a.test/b", "http://a.test/c",
                    "http://a.test/f", "http://a.test/m", "http://a.test/q", "http://a.test/x");
            assertThat(store.pages(2, 1, 10, 200)).extracting(PageRecord::url).containsExactly("http://a.test/b",
                    "http://a.test/c", "http://a.test/f", "http://a.test/m", "http://a.test/x");
        }
    }
}
