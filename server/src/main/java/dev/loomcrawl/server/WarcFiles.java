package dev.loomcrawl.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.NodeSettings;
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
     * keeps them. A cluster job's pages are fetched on many machines: each node started with {@code --warc-dir}
     * keeps its part ({@link NodeSettings#warcPart}).
     */
    boolean kept(@Nullable JsonNode asked) {
        if (asked == null) {
            return dir != null;
        }
        if (!asked.isBoolean()) {
            throw ApiError.badRequest("warc must be true or false (the server names the file: GET /crawl/{id}/warc)",
                    "warc");
        }
        if (asked.booleanValue() && dir == null) {
            throw ApiError.badRequest("warc: this server keeps no WARC files (start it with serve --warc-dir=DIR)",
                    "warc");
        }
        return asked.booleanValue();
    }

    /**
     * A new job's file: named before the job has an id, so by the time and a random part; a cluster job's, the name
     * alone: each node keeps its part in its own directory.
     */
    String newFile(boolean cluster) {
        String name = "crawl-" + STAMP.format(Instant.now()) + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()) + ".warc.gz";
        return cluster ? name : Objects.requireNonNull(dir).resolve(name).toString();
    }

    /**
     * The file a job keeps, if this server serves it: a file in its directory; for a cluster job, this node's part.
     * Else null.
     *
     * @param node this server's cluster node settings, or null
     */
    @Nullable Path served(@Nullable String file, boolean cluster, @Nullable NodeSettings node) {
        if (file == null) {
            return null;
        }
        Path path = !cluster ? Path.of(file).toAbsolutePath().normalize() : node == null ? null : node.warcPart(file);
        return path == null || dir == null || !path.startsWith(dir) || !Files.isRegularFile(path) ? null : path;
    }

    /**
     * The job's file (of a cluster job, this node's part), its whole records: while the job runs, those written so
     * far (a record being written is left for the next call). 404 for a job that keeps none here.
     *
     * @param whole how many of its bytes are whole records, while the job runs in this process; else all of them
     */
    void serve(Context ctx, JobRow job, @Nullable NodeSettings node, OptionalLong whole) throws IOException {
        Path path = served(ConfigCodec.warcFile(job.config()), job.cluster(), node);
        if (path == null) {
            throw ApiError.notFound("job " + job.id() + " has no WARC file on this server (it keeps one for a job when"
                    + " started with --warc-dir, unless the job says \"warc\": false; of a cluster job, the part this"
                    + " node fetched)");
        }
        long length = whole.orElse(Files.size(path));
        ctx.contentType("application/gzip")
                .header("Content-Disposition", "attachment; filename=\"crawl-" + job.id()
                        + (job.cluster() ? "-" + Objects.requireNonNull(node).fileId() : "") + ".warc.gz\"");
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
