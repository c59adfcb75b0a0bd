package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.values.FileErrors;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoreException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** How an H2 database is opened: the settings we add to its URL, its folder checked first, failures in one line. */
final class H2Files {
    private H2Files() {}

    static boolean inMemory(String h2Url) {
        return h2Url.toUpperCase(Locale.ROOT).startsWith("JDBC:H2:MEM:");
    }

    /**
     * The H2 URL we open. H2 writes each commit to the file before the commit returns ({@code WRITE_DELAY=0}):
     * with a delay, its background thread writes commits as they pile up, pipelined with the next ones and
     * moving chunks about in the file, and H2 2.5.252 killed in the middle of that (1 of 300 cold crawls killed
     * in their first two seconds) left files it could not open again ("Chunk 4 not found", H2 issue #4383);
     * without one, every write to the file happens in the committing thread, in order. The group writer
     * commits at most every {@value #COMMIT_MILLIS} ms while results keep coming, so the file is written no
     * more often than before (nothing compacts the file as it is written: on 100,000 pages it grows to 1.6 times
     * what it was, see the README). We close the database ourselves, after the writer has drained; and closing
     * does not compact the file (H2 spends up to 200 ms of CPU on it by default, a cost every one-shot crawl paid
     * at exit); and H2's page cache is 8 MB instead of 16: a
     * crawl writes far more than it reads back, and the smaller cache is less for the collector to carry
     * (cold crawls, interleaved pairs: 0.97× CPU on 10,000 pages, 0.96–0.98× on 100,000).
     */
    static String url(String jdbcUrl) {
        // H2's own exit hook would close the database under the writer, in parallel with our shutdown.
        String url = withDefault(jdbcUrl, "DB_CLOSE_ON_EXIT", "FALSE");
        if (inMemory(jdbcUrl)) {
            return url; // no file: nothing to compact, nothing read back from disk
        }
        return withDefault(withDefault(withDefault(url, "WRITE_DELAY", "0"), "MAX_COMPACT_TIME", "0"),
                "CACHE_SIZE", "8192");
    }

    /** {@code url} with {@code ;setting=value} added, unless it sets {@code setting} itself. */
    private static String withDefault(String url, String setting, String value) {
        return url.toUpperCase(Locale.ROOT).contains(";" + setting + "=") ? url : url + ";" + setting + "=" + value;
    }

    /**
     * The file an H2 URL keeps its database in ({@code .mv.db} added), or null when it names none of this
     * machine's files ({@code mem:}, {@code tcp:}, {@code ssl:}).
     */
    static @Nullable Path file(String jdbcUrl) {
        String rest = jdbcUrl.substring("jdbc:h2:".length());
        if (rest.startsWith("mem:") || rest.startsWith("tcp:") || rest.startsWith("ssl:")) {
            return null;
        }
        String file = rest.startsWith("file:") ? rest.substring(5) : rest;
        if (file.startsWith("~")) {
            file = System.getProperty("user.home") + file.substring(1);
        }
        int semicolon = file.indexOf(';');
        return Path.of((semicolon < 0 ? file : file.substring(0, semicolon)) + ".mv.db").toAbsolutePath();
    }

    /** Whether the database is there already: its file, if it names one of this machine's. */
    static boolean exists(String jdbcUrl) {
        Path file = file(jdbcUrl);
        return file == null || Files.exists(file);
    }

    /** A missing folder is created; one we cannot write to is said in one line, not 54 of H2 stack trace. */
    static void requireWritableFolder(String jdbcUrl) {
        Path path = file(jdbcUrl);
        if (path == null) {
            return;
        }
        Path folder = path.getParent();
        try {
            Files.createDirectories(folder);
        } catch (java.io.IOException e) {
            throw new StoreException("cannot create the database folder " + folder + ": " + FileErrors.reason(e), e);
        }
        // Asked of the file system itself: root passes every permission check, and some folders (/proc) take no
        // files whatever the permissions say. H2 failing there printed its own trace, 54 lines of it.
        try {
            Files.delete(Files.createTempFile(folder, ".loomcrawl-", ".probe"));
        } catch (java.io.IOException | SecurityException e) {
            throw new StoreException("the database folder " + folder + " is not writable: "
                    + (e instanceof AccessDeniedException ? "permission denied" : "no file can be made there"), e);
        }
    }

    static String explain(String jdbcUrl, SQLException e) {
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        String first = (newline < 0 ? message : message.substring(0, newline)).strip();
        if (first.contains("Database may be already in use")) {
            return "the database " + Passwords.hidden(jdbcUrl) + " is in use by another loomcrawl process (a running serve?):"
                    + " stop it, or give this command another --db";
        }
        return "cannot open database '" + Passwords.hidden(jdbcUrl) + "': " + Passwords.hidden(first);
    }
}
