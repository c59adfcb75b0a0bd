package dev.loomcrawl.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.JobRow;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * The jobs' WARC files a server keeps ({@code serve --warc-dir}): whether a job keeps one, its name, and serving it.
 * A client chooses whether, never where: the file is on the server's disk, named by the server, and only files in
 * the directory are served.
 */
final class WarcFiles {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** An absolute path; null: this server keeps none. */
    private final @Nullable Path dir;

    WarcFiles(@Nullable Path dir) {
        this.dir = dir;
    }

    /**
     * Whether a job keeps a WARC file: as its request says ({@code "warc": true|false}), else whenever this server
     * keeps them. A cluster job keeps none: its pages are fetched on many machines.
     */
    boolean kept(@Nullable JsonNode asked, boolean cluster) {
        if (asked == null) {
            return dir != null && !cluster;
        }
        if (!asked.isBoolean()) {
            throw ApiError.badRequest("warc must be true or false (the server names the file: GET /crawl/{id}/warc)",
                    "warc");
        }
        if (asked.booleanValue() && dir == null) {
            throw ApiError.badRequest("warc: this server keeps no WARC files (start it with serve --warc-dir=DIR)",
                    "warc");
        }
        if (asked.booleanValue() && cluster) {
            throw ApiError.badRequest("warc: a cluster job keeps no WARC file (its pages are fetched by many nodes)",
                    "warc");
        }
        return asked.booleanValue();
    }

    /** A new job's file: named before the job has an id, so by the time and a random part. */
    String newFile() {
        String random = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        return Objects.requireNonNull(dir).resolve("crawl-" + STAMP.format(Instant.now()) + "-" + random + ".warc.gz")
                .toString();
    }

    /** The file a job keeps, if this server serves it: a file in its directory; else null. */
    @Nullable Path served(@Nullable String file) {
        Path path = file == null ? null : Path.of(file).toAbsolutePath().normalize();
        return path == null || dir == null || !path.startsWith(dir) || !Files.isRegularFile(path) ? null : path;
    }

    /**
     * The job's file, its whole records: while the job runs, those written so far (a record being written is left
     * for the next call). 404 for a job that keeps none here.
     *
     * @param whole how many of its bytes are whole records, while the job runs in this process; else all of them
     */
    void serve(Context ctx, JobRow job, OptionalLong whole) throws IOException {
        Path path = served(ConfigCodec.warcFile(job.config()));
        if (path == null) {
            throw ApiError.notFound("job " + job.id() + " has no WARC file on this server (it keeps one for a job when"
                    + " started with --warc-dir, unless the job says \"warc\": false)");
        }
        long length = whole.orElse(Files.size(path));
        ctx.contentType("application/gzip")
                .header("Content-Disposition", "attachment; filename=\"crawl-" + job.id() + ".warc.gz\"");
        byte[] buffer = new byte[65_536];
        OutputStream out = ctx.outputStream();
        try (InputStream in = Files.newInputStream(path)) {
            for (long left = length; left > 0; ) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    break;
                }
                out.write(buffer, 0, n);
                left -= n;
            }
        }
    }
}
