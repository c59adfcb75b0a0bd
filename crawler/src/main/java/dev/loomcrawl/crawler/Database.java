package dev.loomcrawl.crawler;

import com.fasterxml.jackson.databind.SequenceWriter;
import dev.loomcrawl.crawler.store.Dialect;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Export.Format;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.PageRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A crawl database, H2 or PostgreSQL: what {@link Crawler} crawls into, and where a job's rows, links, changes
 * and politeness audit are read and taken away (JSON Lines, CSV, Markdown files).
 *
 * <pre>{@code
 * try (Database db = Database.open("jdbc:h2:./data/loomcrawl")) {
 *     db.exportJob(1, Export.Format.JSONL, null, System.out);
 * }
 * }</pre>
 */
public final class Database implements AutoCloseable {
    private final PageStore store;

    private Database(PageStore store) {
        this.store = store;
    }

    /**
     * Opens, creating or migrating as needed, the database at {@code jdbcUrl}: {@code jdbc:h2:./data/loomcrawl},
     * {@code jdbc:h2:mem:test;DB_CLOSE_DELAY=-1}, or {@code jdbc:postgresql://host:5432/db?user=u&password=p}.
     *
     * @throws IllegalArgumentException if the URL is neither H2 nor PostgreSQL
     * @throws dev.loomcrawl.crawler.values.StoreException with a one-line reason if it cannot be opened
     */
    public static Database open(String jdbcUrl) {
        return new Database(PageStore.open(jdbcUrl));
    }

    /**
     * Whether {@link #open} would find a database at {@code jdbcUrl} rather than make one: what a command that
     * only reads jobs asks first, so that a mistyped path is said and leaves no empty database behind.
     */
    public static boolean exists(String jdbcUrl) {
        return PageStore.exists(jdbcUrl);
    }

    /** The database of a store opened inside the engine (its tests, a crawler made on a store). */
    static Database of(PageStore store) {
        return new Database(store);
    }

    /** Whether processes can share a database at this URL as nodes of a cluster: PostgreSQL's, not H2's. */
    public static boolean shared(String jdbcUrl) {
        return Dialect.of(jdbcUrl) == Dialect.POSTGRES;
    }

    /** The engine's own store under this database, for the engine's rooms (a cluster node's). */
    public PageStore store() {
        return store;
    }

    public Optional<JobRow> job(long id) {
        return store.jobs().find(id);
    }

    public long jobCount() {
        return store.jobs().count();
    }

    /** Jobs by status label. */
    public Map<String, Long> jobsByStatus() {
        return store.jobs().countsByStatus();
    }

    /** Why the store's writer stopped, if it did (the disk is full, the database went away). */
    public Optional<String> problem() {
        return store.problem();
    }

    /** A job's rows in the order they were stored; {@code status} filters when not null. */
    public List<PageRecord> pages(long jobId, int offset, int limit, @Nullable Integer status) {
        return store.pages(jobId, offset, limit, status);
    }

    public long countPages(long jobId, @Nullable Integer status) {
        return store.countPages(jobId, status);
    }

    /** A job's change events after {@code afterId}, in order, at most {@code limit}. */
    public List<Change> changesAfter(long jobId, long afterId, int limit) {
        return store.changes().after(jobId, afterId, limit);
    }

    /** Every change event of a job, in order. */
    public void forEachChange(long jobId, Consumer<Change> sink) {
        store.changes().forEach(jobId, sink);
    }

    /** As {@link #exportJob(long, Format, Integer, int, OutputStream)}, content whole. */
    public long exportJob(long jobId, Format format, @Nullable Integer status, OutputStream out) throws IOException {
        return exportJob(jobId, format, status, Integer.MAX_VALUE, out);
    }

    /**
     * Every row of a job ({@link Export}), in the order they were stored or by URL (see
     * {@link PageStore#forEachPage}), content cut at {@code contentMaxChars}; {@code status} filters when not null.
     * Returns how many. Its columns are what the job's config keeps, as a crawl's own {@code --output} writes them,
     * so that a file rewritten on resume and the rows added after it agree.
     */
    public long exportJob(long jobId, Format format, @Nullable Integer status, int contentMaxChars, OutputStream out)
            throws IOException {
        Export.Columns columns = job(jobId).map(row -> Export.Columns.of(ConfigCodec.fromJson(row.config()).output()))
                .orElse(Export.Columns.PLAIN);
        Export.Writer writer = new Export.Writer(out, format, columns, true, contentMaxChars);
        try (writer) {
            store.forEachPage(jobId, 0, Integer.MAX_VALUE, status, columns.body(), page -> {
                try {
                    writer.write(page);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return writer.count();
    }

    /** The job's link graph, one {@code from, to} row per outlink of every stored page. Returns how many. */
    public long exportLinks(long jobId, Format format, OutputStream out) throws IOException {
        long[] n = {0};
        try (SequenceWriter rows = Export.sequence(List.of("from", "to"), format, out)) {
            store.forEachPage(jobId, 0, Integer.MAX_VALUE, null, false, page -> {
                for (String to : page.outlinks()) {
                    try {
                        Map<String, String> edge = new LinkedHashMap<>();
                        edge.put("from", page.url());
                        edge.put("to", to);
                        rows.write(edge);
                        n[0]++;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Export.endLines(format, n[0], out);
        return n[0];
    }

    /** The job's change events ({@code export --changes}). Returns how many. */
    public long exportChanges(long jobId, Format format, OutputStream out) throws IOException {
        return FindingsExport.changes(store, jobId, format, out);
    }

    /** The job's groups of near-duplicate pages ({@code export --near-duplicates}). Returns how many rows. */
    public long exportNearDuplicates(long jobId, Format format, OutputStream out) throws IOException {
        return FindingsExport.nearDuplicates(store, jobId, format, out);
    }

    /** The job's politeness audit, one row per key ({@code export --politeness}). Returns how many. */
    public long exportPoliteness(long jobId, Format format, OutputStream out) throws IOException {
        return FindingsExport.politeness(store, jobId, format, out);
    }

    /** One Markdown file per page with content, in {@code dir} ({@code export --markdown}). Returns how many. */
    public long writeMarkdown(long jobId, Path dir, int maxChars) throws IOException {
        return MarkdownFiles.write(store, jobId, dir, maxChars);
    }

    /**
     * The same files as {@link #writeMarkdown}, as one ZIP archive streamed to {@code out}, left open. Returns how
     * many.
     */
    public long exportMarkdown(long jobId, int maxChars, OutputStream out) throws IOException {
        return MarkdownFiles.zip(store, jobId, out, maxChars);
    }

    /** Writes what is queued, then closes the database. */
    @Override
    public void close() {
        store.close();
    }
}
