package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.StoredListener;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * {@code --output}: every row written as it is stored, in the {@link RowFile} the name asks for, or JSON
 * Lines on stdout for {@code -}. Tasks write from many threads; a lock (never {@code synchronized}, it is held
 * across I/O) keeps rows whole, and a virtual thread flushes the file a few times a second.
 */
final class RowOutput implements AutoCloseable {
    private static final Duration FLUSH_EVERY = Duration.ofMillis(250);

    /** Where rows go: a stream and the writer on it; null for no output. */
    private record Sink(OutputStream stream, Export.Writer writer) {}

    private final @Nullable Sink sink;
    private final boolean stdout;
    private final ReentrantLock lock = new ReentrantLock();
    private final @Nullable Thread flusher;
    private boolean unflushed;
    private @Nullable IOException failure;
    private volatile boolean closed;

    private RowOutput(@Nullable Sink sink, boolean stdout) {
        this.sink = sink;
        this.stdout = stdout;
        this.flusher = sink == null ? null : Thread.ofVirtual().name("rows-flush").start(this::flushEvery);
    }

    /** Rows reach the file within {@link #FLUSH_EVERY} of being stored, however long the crawl then waits. */
    private void flushEvery() {
        try {
            while (!closed) {
                Thread.sleep(FLUSH_EVERY);
                lock.lock();
                try {
                    if (sink != null && unflushed && failure == null && !closed) {
                        sink.writer().flush();
                        sink.stream().flush();
                        unflushed = false;
                    }
                } catch (IOException e) {
                    failure = e; // said once, at the end; the crawl and its store go on
                } finally {
                    lock.unlock();
                }
            }
        } catch (InterruptedException e) {
            // closed: close() flushes what is left
        }
    }

    /**
     * @param target a file, {@code -} for {@code stdout}, or null for no output
     * @param append add to an existing file (a resumed job); a CSV header is written only to an empty file
     * @param columns the job keeps bodies or content: CSV gets their columns too
     */
    static RowOutput open(@Nullable String target, boolean append, Export.Columns columns, java.io.PrintWriter stdout)
            throws IOException {
        if (target == null) {
            return new RowOutput(null, false);
        }
        if (target.equals("-")) {
            OutputStream out = new TextStream(stdout);
            return new RowOutput(new Sink(out, new Export.Writer(out, Export.Format.JSONL, columns, true)), true);
        }
        RowFile file = RowFile.of("--output", Path.of(target));
        boolean header = !append || file.empty();
        OutputStream out = file.open("--output", append);
        return new RowOutput(new Sink(out, new Export.Writer(out, file.format(), columns, header)), false);
    }

    /**
     * Makes {@code target}, if it exists, hold exactly the rows job {@code jobId} has stored, each URL once and
     * every line whole: what {@code resume --output} does before it adds rows. Rows reach the file as they are
     * stored, a moment before their commit, so a process killed meanwhile leaves rows the database lost (they
     * are fetched again and would be written twice) and maybe a cut last line. Written beside the file and
     * moved over it, so a kill during the rewrite leaves the old file whole.
     */
    static void rewrite(@Nullable String target, Database db, long jobId) throws IOException {
        if (target == null || target.equals("-") || !Files.exists(Path.of(target))) {
            return; // no file, or none written yet: nothing to make whole
        }
        Path path = Path.of(target);
        RowFile file = RowFile.of("--output", path);
        Path fresh = path.resolveSibling(path.getFileName() + ".resume-tmp");
        try (OutputStream out = new RowFile(fresh, file.format(), file.gzip()).open("--output", false)) {
            db.exportJob(jobId, file.format(), null, out);
        } catch (IOException e) {
            Files.deleteIfExists(fresh);
            throw new IllegalArgumentException("--output: cannot rewrite " + target + ": " + e.getMessage());
        }
        Files.move(fresh, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    boolean toStdout() {
        return stdout;
    }

    /** The listener for the job, or null when there is no output. */
    @Nullable StoredListener listener() {
        return sink == null ? null : this::write;
    }

    private void write(PageRecord row) {
        lock.lock();
        try {
            if (sink == null || failure != null || closed) {
                return;
            }
            sink.writer().write(row);
            unflushed = true;
        } catch (IOException e) {
            failure = e; // said once, at the end; the crawl and its store go on
        } finally {
            lock.unlock();
        }
    }

    /** Closes without complaint, from a shutdown hook. */
    void closeQuietly() {
        try {
            close();
        } catch (IOException | UncheckedIOException e) {
            // the process is stopping; the summary says no more
        }
    }

    /** Flushes and closes; throws if any row could not be written. */
    @Override
    public void close() throws IOException {
        if (sink == null || closed) {
            return;
        }
        closed = true;
        if (flusher != null) {
            flusher.interrupt();
        }
        lock.lock();
        try {
            sink.writer().close();
            sink.stream().flush();
            if (!stdout) {
                sink.stream().close();
            }
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            throw new UncheckedIOException("--output: rows could not be written: " + failure.getMessage(), failure);
        }
    }
}
