package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageStoreTest {

    /** A database written by the first release (no attempts column, no frontier table) still opens and works. */
    @Test
    void opensADatabaseFromAnEarlierVersion(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("old");
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("""
                    CREATE TABLE pages (job_id BIGINT NOT NULL, url VARCHAR(4096) NOT NULL, depth INT NOT NULL,
                      status INT NOT NULL, content_type VARCHAR(256), title VARCHAR(1024), bytes INT NOT NULL,
                      text_length INT NOT NULL, fetch_ms DOUBLE PRECISION NOT NULL, failure VARCHAR(32),
                      detail VARCHAR(1024), fetched_at TIMESTAMP WITH TIME ZONE NOT NULL, thread VARCHAR(64),
                      PRIMARY KEY (job_id, url))""");
            st.execute("INSERT INTO pages VALUES (1, 'http://a.test/', 0, 200, 'text/html', 'old', 10, 5, 1.5, NULL,"
                    + " NULL, CURRENT_TIMESTAMP, 'crawl-vt-1')");
        }
        try (PageStore store = PageStore.open(url)) {
            assertThat(store.pages(1, 0, 10, null)).singleElement()
                    .satisfies(p -> assertThat(p.attempts()).isEqualTo(1));
            store.save(new PageRecord(1, "http://a.test/new", 1, 200, "text/html", "new", 10, 5, 2.0, 2, null, null,
                    Instant.now(), "crawl-vt-2"));
            store.flush();
            assertThat(store.countPages(1, null)).isEqualTo(2);
            assertThat(store.resumeState(1).admitted()).isEmpty(); // the frontier table now exists
        }
    }
}
