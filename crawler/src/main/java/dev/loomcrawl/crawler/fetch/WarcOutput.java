package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.ConfigException;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;

/**
 * A WARC file of a job's fetches, written with jwarc: for every stored URL that got an HTTP response, a
 * {@code request} record and a {@code response} record holding the response as received (status line,
 * headers, and the body still in its {@code Content-Encoding}); one whose body could not be had whole (the
 * fetch deadline, the body limit, a type not kept) says so in {@code WARC-Truncated}. A {@code .gz} name gzips
 * each record, as WARC tools expect. A resumed job appends to the same file, after its last whole record.
 *
 * <p>Records are WARC/1.1 with {@code WARC-Block-Digest} and, on responses, {@code WARC-Payload-Digest}
 * (SHA-1, base32). The body stands as the client received it; the JDK client removes chunked transfer
 * coding, so {@code Transfer-Encoding} is dropped and {@code Content-Length} states the body's length.
 * What {@code java.net.http} does not hand over cannot be recorded: the status line is written
 * {@code HTTP/1.1} with the standard reason phrase (an HTTP/1.0 server's version and its own phrase are not
 * exposed), and header names come lower-case and grouped by name, not as sent (docs/operations.md).
 */
public final class WarcOutput implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WarcOutput.class.getName());
    private final WarcWriter writer;
    /**
     * A {@code FileOutputStream}, not a {@code FileChannel}: a channel written by an interrupted thread closes for
     * everyone, and a cancelled job interrupts its tasks.
     */
    private final OutputStream file;
    /**
     * A request and its response, made here and written to the file in one call, so that a killed process leaves
     * the file at a pair's end unless the kill cuts that one write short. Not a buffered stream: a record larger
     * than its buffer would reach the file in parts while jwarc made the rest.
     */
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final ReentrantLock lock = new ReentrantLock(); // held across file I/O: never synchronized
    /** The file's length when it was opened: a resumed job's records follow its earlier runs'. */
    private final long before;
    /** The file's length up to the end of its last whole record, for a reader while the job writes on. */
    private volatile long whole;

    private WarcOutput(OutputStream file, WarcCompression compression, long before) throws IOException {
        this.file = file;
        this.writer = new WarcWriter(new StreamChannel(pending), compression);
        this.before = before;
        this.whole = before;
    }

    /** The channel jwarc writes to, over a stream: here, the pair being made. */
    private record StreamChannel(OutputStream out) implements WritableByteChannel {
        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            if (src.hasArray()) {
                out.write(src.array(), src.arrayOffset() + src.position(), n);
                src.position(src.limit());
            } else {
                byte[] bytes = new byte[n];
                src.get(bytes);
                out.write(bytes);
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    public static WarcOutput open(String file, String software) {
        Path path = Path.of(file);
        try {
            if (path.toAbsolutePath().getParent() != null) {
                Files.createDirectories(path.toAbsolutePath().getParent());
            }
            long before = Files.exists(path) ? wholeRecords(path, file) : 0;
            WarcCompression compression = file.toLowerCase(Locale.ROOT).endsWith(".gz") ? WarcCompression.GZIP
                    : WarcCompression.NONE;
            WarcOutput out = new WarcOutput(new FileOutputStream(path.toFile(), true), compression, before);
            if (before == 0) {
                out.writer.write(new Warcinfo.Builder().version(MessageVersion.WARC_1_1).fields(Map.of("software", List.of(software),
                        "format", List.of("WARC File Format 1.1"))).build());
                out.flushed();
            }
            return out;
        } catch (IOException e) {
            throw new ConfigException("warcFile", file, "cannot be written: " + e.getMessage());
        }
    }

    /**
     * The length of an existing file's whole records, the file cut to it: a killed run can leave a pair's start, and
     * a reader stops at the first broken record, so records appended after it would be lost to every reader.
     */
    private static long wholeRecords(Path path, String file) throws IOException {
        long size = Files.size(path);
        if (size == 0) {
            return 0;
        }
        long whole = WarcTail.wholeLength(path);
        if (whole == 0) {
            throw new ConfigException("warcFile", file, "holds no whole WARC record: name a new file, or one a crawl wrote");
        }
        if (whole < size) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(whole);
            }
            LOG.log(System.Logger.Level.WARNING, "{0}: cut {1} bytes after its last whole record, left by a run that"
                    + " stopped while writing", file, size - whole);
        }
        return whole;
    }

    /**
     * Records one exchange: what was asked and what came back.
     *
     * @param cut the body is the start of a longer one, cut at the body limit ({@code WARC-Truncated: length})
     */
    public void write(HttpRequest request, int status, HttpHeaders headers, byte[] body, boolean cut, Instant date) {
        write(request, status, headers, body, cut ? WarcTruncationReason.LENGTH : WarcTruncationReason.NOT_TRUNCATED,
                date);
    }

    /**
     * Records an exchange that failed after the response's headers came: the body as received where it was read
     * whole (an error page, a body that could not be decoded), else none, and the record says why it holds less
     * than the server sent ({@code WARC-Truncated}), so that a replay does not serve an empty page as the answer.
     */
    public void write(HttpRequest request, FetchResult.Failed failed, HttpHeaders headers, Instant date) {
        WarcTruncationReason truncated = switch (failed.kind()) {
            case TIMEOUT -> WarcTruncationReason.TIME; // the fetch deadline cut the body
            case TOO_LARGE -> WarcTruncationReason.LENGTH; // over the body limit: not read
            default -> failed.raw() == null ? WarcTruncationReason.UNSPECIFIED : WarcTruncationReason.NOT_TRUNCATED;
        };
        write(request, failed.status(), headers, failed.raw() == null ? new byte[0] : failed.raw(), truncated, date);
    }

    private void write(HttpRequest request, int status, HttpHeaders headers, byte[] body,
            WarcTruncationReason truncated, Instant date) {
        URI target = request.uri();
        byte[] requestBytes = requestBytes(request);
        byte[] responseBytes = responseBytes(status, headers, body);
        lock.lock();
        try {
            WarcRequest warcRequest = new WarcRequest.Builder(target).version(MessageVersion.WARC_1_1).date(date)
                    .blockDigest(sha1(requestBytes)).body(MediaType.HTTP_REQUEST, requestBytes).build();
            writer.write(warcRequest);
            WarcResponse.Builder response = new WarcResponse.Builder(target).version(MessageVersion.WARC_1_1).date(date)
                    .concurrentTo(warcRequest.id()).blockDigest(sha1(responseBytes)).payloadDigest(sha1(body))
                    .body(MediaType.HTTP_RESPONSE, responseBytes);
            if (truncated != WarcTruncationReason.NOT_TRUNCATED) {
                response.truncated(truncated);
            }
            writer.write(response.build());
            flushed(); // the pair reaches the file in one write
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the WARC file: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many of the file's bytes are whole records: all of it once the job has closed it; while it writes, a
     * reader that stops here never meets a record half-written.
     */
    public long wholeBytes() {
        return whole;
    }

    private void flushed() throws IOException {
        pending.writeTo(file);
        pending.reset();
        whole = before + writer.position();
    }

    /** SHA-1 in base32, as WARC tools write and read it (deduplication, replay and CDX indexes key on it). */
    private static WarcDigest sha1(byte[] bytes) {
        try {
            return new WarcDigest("sha1", MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    private static byte[] requestBytes(HttpRequest request) {
        URI uri = request.uri();
        StringBuilder b = new StringBuilder("GET ").append(uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
        if (uri.getRawQuery() != null) {
            b.append('?').append(uri.getRawQuery());
        }
        b.append(" HTTP/1.1\r\nHost: ").append(uri.getRawAuthority()).append("\r\n");
        request.headers().map().forEach((name, values) -> values.forEach(v -> b.append(name).append(": ")
                .append(v).append("\r\n")));
        return b.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] responseBytes(int status, HttpHeaders headers, byte[] body) {
        StringBuilder b = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        headers.map().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.equals("transfer-encoding") && !lower.equals("content-length") && !lower.equals(":status")) {
                values.forEach(v -> b.append(name).append(": ").append(v).append("\r\n"));
            }
        });
        b.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        byte[] head = b.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 303 -> "See Other";
            case 304 -> "Not Modified";
            case 307 -> "Temporary Redirect";
            case 308 -> "Permanent Redirect";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 410 -> "Gone";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "";
        };
    }

    @Override
    public void close() {
        lock.lock();
        try (OutputStream closing = file) {
            writer.close();
        } catch (IOException e) {
            // the records written so far are whole: each was written in one call
        } finally {
            lock.unlock();
        }
    }
}
