package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.loomcrawl.crawler.store.Admitted;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PageStoreTest {

    static PageRecord page(long job, String url, int depth) {
        return new PageRecord(job, url, depth, 200, "text/html", "t", 10, 1.5, 1, null, null, Instant.now(), "crawl-vt-1",
                null, List.of("http://a.test/x"), Map.of("h1", "hello"), null, null, 2.0, "\"v1\"",
                "Mon, 02 Nov 2026 10:00:00 GMT", "ab".repeat(32), 0x1234_5678_9abc_def0L, null, false);
    }

    /**
     * A thread interrupted while it writes (a cancelled job's, a fetch's) must not close the database for
     * everyone: on H2's default file system the write fails with ClosedByInterruptException and every later
     * statement with "The database has been closed".
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:", "jdbc:h2:file:"})
    void anInterruptedWriterDoesNotCloseTheDatabase(String prefix, @TempDir Path dir) throws Exception {
        try (PageStore store = PageStore.open(prefix + dir.resolve("db"))) {
            long job = store.jobs().create("virtual", 0, "{}", false);
            Thread.currentThread().interrupt();
            try {
                store.jobs().addRunTime(job, 1.5, 0.5, false); // commits to the file on this interrupted thread
                store.jobs().update(job, "done", null);
            } finally {
                assertThat(Thread.interrupted()).as("the interrupt stays set for its owner").isTrue();
            }
            assertThat(store.problem()).isEmpty();
            assertThat(store.jobs().create("virtual", 0, "{}", false)).isEqualTo(job + 1);
            assertThat(store.jobs().find(job).orElseThrow().status()).isEqualTo("done");
        }
    }

    /** A database written by the first release (no attempts column, no frontier table) still opens and works. */
    @Test
    void opensADatabaseFromAnEarlierVersion(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("old");
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            firstReleaseTables(st);
            st.execute("INSERT INTO pages VALUES (1, 'http://a.test/', 0, 200, 'text/html', 'old', 10, 5, 1.5, NULL,"
                    + " NULL, CURRENT_TIMESTAMP, 'crawl-vt-1')");
            st.execute("INSERT INTO jobs (created_at, status, mode, pool_size, spec) VALUES (CURRENT_TIMESTAMP, 'done',"
                    + " 'virtual', 200, '{\"seeds\":[\"http://a.test/\"],\"requestTimeoutMs\":2500}')");
        }
        try (PageStore store = PageStore.open(url)) {
            assertThat(store.pages(1, 0, 10, null)).singleElement()
                    .satisfies(p -> assertThat(p.attempts()).isEqualTo(1));
            store.saveWithLinks(page(1, "http://a.test/new", 1), List.of(new Admitted(1, "http://a.test/x", 2, 0,
                    "http://a.test/new")), List.of());
            store.flush();
            assertThat(store.countPages(1, null)).isEqualTo(2);
            assertThat(store.resumeState(1).admitted()).hasSize(1); // the frontier table now exists
            // The old job's request JSON reads as a config: same names.
            assertThat(ConfigCodec.fromJson(store.jobs().find(1).orElseThrow().config()).fetch().requestTimeout())
                    .isEqualTo(Duration.ofMillis(2_500));
        }
    }

    /** Content kept as text by the release that first kept it becomes UTF-8 bytes, every character as it was. */
    @Test
    void contentKeptAsTextIsReadAsItWasAfterItsColumnBecomesBytes(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("text-content");
        PageStore.open(url).close();
        String text = "Café, naïve, 東京 and \uD83D\uDE00: *kept*";
        try (PageStore store = PageStore.open(url)) {
            store.saveWithLinks(page(1, "http://a.test/", 0), List.of(), List.of());
            store.flush();
        }
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement();
                java.sql.PreparedStatement ps = c.prepareStatement("UPDATE pages SET content = ?")) {
            st.execute("ALTER TABLE pages ALTER COLUMN content SET DATA TYPE CHARACTER VARYING"); // as it was
            ps.setString(1, text);
            ps.executeUpdate();
        }
        try (PageStore store = PageStore.open(url)) {
            assertThat(store.pages(1, 0, 10, null)).singleElement()
                    .satisfies(p -> assertThat(p.content().text()).isEqualTo(text));
        }
        assertThat(columns(url)).containsEntry("PAGES.CONTENT", "BINARY VARYING YES null");
    }

    /** The tables of the first release: no attempts column, no frontier table, a text length nobody read. */
    private static void firstReleaseTables(Statement st) throws Exception {
        st.execute("""
                CREATE TABLE pages (job_id BIGINT NOT NULL, url VARCHAR(4096) NOT NULL, depth INT NOT NULL,
                  status INT NOT NULL, content_type VARCHAR(256), title VARCHAR(1024), bytes INT NOT NULL,
                  text_length INT NOT NULL, fetch_ms DOUBLE PRECISION NOT NULL, failure VARCHAR(32),
                  detail VARCHAR(1024), fetched_at TIMESTAMP WITH TIME ZONE NOT NULL, thread VARCHAR(64),
                  PRIMARY KEY (job_id, url))""");
        st.execute("""
                CREATE TABLE jobs (id BIGINT AUTO_INCREMENT PRIMARY KEY, created_at TIMESTAMP WITH TIME ZONE NOT NULL,
                  finished_at TIMESTAMP WITH TIME ZONE, status VARCHAR(16) NOT NULL, mode VARCHAR(16) NOT NULL,
                  pool_size INT NOT NULL, spec CHARACTER LARGE OBJECT, summary CHARACTER LARGE OBJECT)""");
    }

    /**
     * A new database is made with today's tables in one statement each, an older one gets the columns it lacks:
     * every column added since the first release must end up alike in both (type, nullability, default), or
     * one of the two definitions is wrong. (The first release's own columns keep the types they had.)
     */
    @Test
    void aNewDatabaseHasTheColumnsAMigratedOneGets(@TempDir Path dir) throws Exception {
        String old = "jdbc:h2:" + dir.resolve("old");
        try (Connection c = DriverManager.getConnection(old, "sa", ""); Statement st = c.createStatement()) {
            firstReleaseTables(st);
        }
        Map<String, String> first = columns(old);
        String fresh = "jdbc:h2:" + dir.resolve("new");
        PageStore.open(old).close();
        PageStore.open(fresh).close();
        Map<String, String> migrated = columns(old);
        Map<String, String> added = new TreeMap<>(columns(fresh));
        added.keySet().removeAll(first.keySet());
        // Only a new H2 database keys its pages by the URL's hash and numbers them; one made earlier keeps its URL key.
        assertThat(added.remove("PAGES.URL_HASH")).isEqualTo("BIGINT NO null");
        assertThat(added.remove("PAGES.SEQ")).startsWith("BIGINT NO");
        assertThat(migrated).doesNotContainKeys("PAGES.URL_HASH", "PAGES.SEQ");
        // jobs 6, pages 17 (main content and the page's facts: 5; noindex), the frontier table's 5, the admissions log's 5, host rests 2, changes 9, webhook cursors 7
        // (the last delivered, who delivers until when, why the next fails since when after how many tries), host
        // settings 4, the politeness audit 16, the retries log 3
        assertThat(added).hasSize(74);
        assertThat(migrated).containsAllEntriesOf(added);
    }

    /** {@code table.column} to its type, nullability and default, for the application's tables. */
    private static Map<String, String> columns(String url) throws Exception {
        Map<String, String> columns = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT table_name, column_name, data_type, is_nullable,"
                        + " column_default FROM information_schema.columns WHERE table_schema = 'PUBLIC'")) {
            while (rs.next()) {
                columns.put(rs.getString(1) + "." + rs.getString(2),
                        rs.getString(3) + " " + rs.getString(4) + " " + rs.getString(5));
            }
        }
        return columns;
    }

    @Test
    void outlinksAndFieldsComeBackAsStored() throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:mem:rows;DB_CLOSE_DELAY=-1")) {
            store.saveWithLinks(page(7, "http://a.test/", 0), List.of(), List.of());
            store.flush();
            PageRecord back = store.pages(7, 0, 1, null).getFirst();
            assertThat(back.outlinks()).containsExactly("http://a.test/x");
            assertThat(back.fields()).containsEntry("h1", "hello");
            assertThat(back.pageMillis()).isEqualTo(2.0);
            assertThat(back.etag()).isEqualTo("\"v1\"");
            assertThat(back.lastModified()).isEqualTo("Mon, 02 Nov 2026 10:00:00 GMT");
            assertThat(back.digest()).isEqualTo("ab".repeat(32));
            assertThat(back.simhash()).isEqualTo(0x1234_5678_9abc_def0L);
        }
    }

    /** A batch led by a row of nulls (a URL skipped on sight) keeps every value of the rows after it. */
    @Test
    void aRowOfNullsFirstInABatchChangesNoOtherRow() throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:mem:nulls;DB_CLOSE_DELAY=-1")) {
            PageRecord skipped = new PageRecord(9, "http://a.test/private/1", 1, 0, null, null, 0, 0, 0, "robots",
                    "disallowed by robots.txt", Instant.now(), "t", null, List.of(), Map.of(), null, null, 0, null, null, null, null, null, false);
            store.saveWithLinks(page(9, "http://a.test/", 0), List.of(), List.of(skipped));
            store.flush();
            PageRecord back = store.pages(9, 0, 10, 200).getFirst();
            assertThat(back.contentType()).isEqualTo("text/html");
            assertThat(back.title()).isEqualTo("t");
            assertThat(back.outlinks()).containsExactly("http://a.test/x");
            assertThat(back.fields()).containsEntry("h1", "hello");
        }
    }

    /**
     * A URL written again (in the same batch, or in a later one) keeps its first row, and the rest of its batch
     * is written: H2 refuses the repeat alone and the writer passes over it, as PostgreSQL's ON CONFLICT does;
     * alike with pages keyed by the URL's hash (a new database) and by the URL (one an earlier version made).
     */
    @ParameterizedTest(name = "keyed by hash: {0}")
    @ValueSource(booleans = {true, false})
    void aRepeatedUrlKeepsItsFirstRowAndLosesNoOtherRow(boolean hashKey, @TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("repeat");
        if (!hashKey) {
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
                firstReleaseTables(st);
            }
        }
        try (PageStore store = PageStore.open(url)) {
            Admitted link = new Admitted(4, "http://a.test/l", 1, 0, "http://a.test/");
            PageRecord first = page(4, "http://a.test/", 0);
            PageRecord again = new PageRecord(4, "http://a.test/", 0, 503, "text/html", "again", 10, 1.5, 1, "http",
                    "503", Instant.now(), "t", null, List.of(), Map.of(), null, null, 2.0, null, null, null, null, null, false);
            PageRecord a = page(4, "http://a.test/a", 1);
            store.saveWithLinks(first, List.of(link, link), List.of(a, a));
            store.flush();
            store.saveWithLinks(again, List.of(link, new Admitted(4, "http://a.test/m", 1, 0, null)),
                    List.of(page(4, "http://a.test/b", 1)));
            store.flush();
            assertThat(store.failed()).isFalse();
            assertThat(store.pages(4, 0, 10, null)).extracting(PageRecord::url, PageRecord::status)
                    .containsExactlyInAnyOrder(tuple("http://a.test/", 200),
                    tuple("http://a.test/a", 200),
                    tuple("http://a.test/b", 200));
            assertThat(store.resumeState(4).admitted()).extracting(Admitted::url)
                    .containsExactlyInAnyOrder("http://a.test/l", "http://a.test/m");
        }
    }

    @Test
    void aShorterPathFoundLaterLowersTheStoredDepth() throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:mem:depth;DB_CLOSE_DELAY=-1")) {
            store.saveWithLinks(page(3, "http://a.test/p", 5), List.of(new Admitted(3, "http://a.test/p", 5, 0, null)),
                    List.of());
            store.lowerDepth(3, "http://a.test/p", 2);
            store.lowerDepth(3, "http://a.test/p", 4); // never raised again
            store.flush();
            assertThat(store.pages(3, 0, 1, null).getFirst().depth()).isEqualTo(2);
            assertThat(store.resumeState(3).admitted().getFirst().depth()).isEqualTo(2);
        }
    }

    /**
     * Admissions are a log: a resume folds each URL's rows into one, with its first admission's redirects and
     * referrer and the least depth; rows an earlier version left in the frontier table fold in alike.
     */
    @Test
    void aResumeFoldsTheAdmissionsLogAndTheEarlierFrontier(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("log");
        PageStore.open(url).close();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("INSERT INTO frontier (job_id, url, depth, redirects, referrer)"
                    + " VALUES (7, 'http://a.test/old', 4, 1, 'http://a.test/r')"); // as an earlier version wrote it
        }
        try (PageStore store = PageStore.open(url)) {
            store.saveAdmitted(List.of(new Admitted(7, "http://a.test/", 0, 0, null),
                    new Admitted(7, "http://a.test/p", 3, 2, "http://a.test/")), List.of());
            store.saveAdmitted(List.of(new Admitted(7, "http://a.test/", 0, 0, null)), List.of()); // a seed again
            store.lowerDepth(7, "http://a.test/p", 1);
            store.lowerDepth(7, "http://a.test/p", 2); // never raised again
            store.lowerDepth(7, "http://a.test/old", 2);
            store.saveAdmitted(List.of(new Admitted(8, "http://a.test/p", 5, 0, null)), List.of()); // another job
            store.flush();
            assertThat(store.resumeState(7).admitted()).containsExactly(
                    new Admitted(7, "http://a.test/", 0, 0, null),
                    new Admitted(7, "http://a.test/p", 1, 2, "http://a.test/"),
                    new Admitted(7, "http://a.test/old", 2, 1, "http://a.test/r"));
        }
    }

    /**
     * Closing wakes the writer at once (it no longer waits out its poll for work), and still writes everything
     * handed over before it: many batches' worth, none flushed, each stored after a reopen.
     */
    @Test
    void closeWritesEverythingHandedOverBeforeIt(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("close");
        PageStore store = PageStore.open(url);
        for (int i = 0; i < 5_000; i++) {
            store.saveWithLinks(page(9, "http://a.test/" + i, 1), List.of(new Admitted(9, "http://a.test/n" + i, 2, 0,
                    null)), List.of());
        }
        store.close();
        try (PageStore reopened = PageStore.open(url)) {
            assertThat(reopened.storedCounts(9).pages()).isEqualTo(5_000);
            assertThat(reopened.resumeState(9).admitted()).hasSize(5_000);
        }
    }

    /**
     * H2 writes an open store's file only in the threads that commit, never in a background thread of its own:
     * H2 2.5.252 killed while its background writer was storing left files it could not open again ("Chunk 4
     * not found"), see {@code PageStore}. With {@code WRITE_DELAY} left at H2's default this thread exists.
     */
    @Test
    void anH2FileIsWrittenOnlyByTheThreadsThatCommit(@TempDir Path dir) throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:" + dir.resolve("sync"))) {
            store.saveWithLinks(page(2, "http://a.test/", 0), List.of(), List.of());
            store.flush();
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .noneMatch(name -> name.startsWith("MVStore background writer"));
        }
    }

    /**
     * Results are committed at most every interval while they keep coming, but never wait for it when they stop,
     * when a batch's worth waits (a larger transaction H2 writes twice), or when someone flushes: here the interval
     * is ten minutes, and each takes well under the test's timeout.
     */
    @Test
    void resultsAreCommittedWhenTheyStopComingByTheBatchOrOnAFlush(@TempDir Path dir) throws Exception {
        try (PageStore store = PageStore.open("jdbc:h2:" + dir.resolve("commit"), Duration.ofMinutes(10))) {
            store.saveWithLinks(page(3, "http://a.test/", 0), List.of(), List.of());
            await().atMost(Duration.ofSeconds(10)).until(() -> store.countPages(3, null) == 1); // no flush: idle
            // A flush while results keep coming (no pause for an idle commit) is answered at once too.
            AtomicLong fed = new AtomicLong();
            AtomicBoolean flushed = new AtomicBoolean();
            Thread feeder = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 2_000_000 && !flushed.get(); i++) {
                    try {
                        store.saveWithLinks(page(3, "http://a.test/" + i, 1), List.of(), List.of());
                    } catch (InterruptedException e) {
                        return;
                    }
                    fed.incrementAndGet();
                }
            });
            // Committed by the batch (512 writes) while they keep coming, long before the interval.
            await().atMost(Duration.ofSeconds(10)).until(() -> store.countPages(3, null) > 1_024);
            assertThat(feeder.isAlive()).isTrue(); // still coming: not an idle commit
            long handedOver = fed.get();
            assertTimeoutPreemptively(Duration.ofSeconds(10), store::flush);
            flushed.set(true);
            feeder.join();
            assertThat(store.countPages(3, null)).isGreaterThanOrEqualTo(1 + handedOver);
        }
    }

    /**
     * {@code pages.seq} hands out values in large steps, in a new database and in one made before: H2 writes the
     * sequence to the file each time its cache runs out, and with every commit written at once that was a file
     * write every 32 rows (625 on a 10,000-page crawl).
     */
    @Test
    void pageNumbersAreHandedOutInLargeSteps(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:" + dir.resolve("seq");
        PageStore.open(url).close();
        assertThat(seqCache(url)).isEqualTo(1_000_000);
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE pages ALTER COLUMN seq SET CACHE 32"); // as the previous version made it
        }
        PageStore.open(url).close();
        assertThat(seqCache(url)).isEqualTo(1_000_000);
    }

    private static long seqCache(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT identity_cache FROM information_schema.columns"
                        + " WHERE table_name = 'PAGES' AND column_name = 'SEQ'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** The writer dies (a row it cannot store); callers are told at once, and close() returns, bounded. */
    @Test
    void aDeadWriterFailsCallersAndNeverBlocksClose() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            PageStore store = PageStore.open("jdbc:h2:mem:dead;DB_CLOSE_DELAY=-1");
            PageRecord tooLong = page(1, "http://a.test/" + "x".repeat(5_000), 0); // over VARCHAR(4096)
            store.saveWithLinks(tooLong, List.of(), List.of());
            assertThatThrownBy(() -> {
                for (int i = 0; i < 20_000; i++) { // more than the writer's queue holds
                    store.saveWithLinks(page(1, "http://a.test/" + i, 0), List.of(), List.of());
                }
                store.flush();
            }).isInstanceOf(StoreException.class).hasMessageContaining("storage failed");
            assertThat(store.failed()).isTrue();
            store.close();
        });
    }

    /** As root a read-only folder is writable; a file where the folder should be is refused to anyone. */
    @Test
    void aFolderThatCannotBeMadeIsOneLine(@TempDir Path dir) throws Exception {
        Path blocker = Files.writeString(dir.resolve("blocker"), "a file, not a folder");
        assertThatThrownBy(() -> PageStore.open("jdbc:h2:" + blocker.resolve("sub").resolve("db")))
                .isInstanceOf(StoreException.class)
                .hasMessageNotContaining("\n")
                .hasMessage("cannot create the database folder " + blocker.resolve("sub") + ": not a directory");
    }

    /** A folder that takes no files, whoever asks (root included): one line, before H2 prints its trace. */
    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:/proc/db", "jdbc:h2:/proc/self/db"})
    void aFolderThatCannotBeWrittenIsOneLine(String url) {
        assertThatThrownBy(() -> PageStore.open(url))
                .isInstanceOf(StoreException.class)
                .hasMessageNotContaining("\n")
                .hasMessageContaining("is not writable");
    }
}
