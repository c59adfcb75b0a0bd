package dev.loomcrawl.crawler.values;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.loomcrawl.crawler.encoding.PageEncoding;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A job's rows as people take them away: JSON Lines (one object per line) or CSV with a header, the same
 * columns in the same order whichever way they leave (the API, {@code crawl --output}, {@code export}).
 *
 * <p>Columns: {@code url, depth, status, outcome, contentType, title, bytes, fetchMs, fetchedAt, failure,
 * detail, referrer, outlinks, fields, canonical, noindex, attempts, etag, lastModified, digest, simhash}; {@code content,
 * lang, description, author, published} for jobs that keep main content ({@code --content}); and {@code body}
 * for jobs that keep bodies (text types decoded as {@code PageEncoding} decodes them, else base64, said by
 * {@code bodyEncoding}).
 * In CSV, {@code outlinks} are separated by spaces and {@code fields} is a JSON object.
 */
public final class Export {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CsvMapper CSV = new CsvMapper();
    private static final List<String> COLUMNS = List.of("url", "depth", "status", "outcome", "contentType", "title",
            "bytes", "fetchMs", "fetchedAt", "failure", "detail", "referrer", "outlinks", "fields", "canonical",
            "noindex", "attempts", "etag", "lastModified", "digest", "simhash");

    private static final List<String> CONTENT_COLUMNS = List.of("content", "lang", "description", "author",
            "published");

    /**
     * The columns a job's rows have beyond the ones every row has.
     *
     * @param body the job keeps bodies ({@code --store-body})
     * @param content the job keeps main content ({@code --content})
     */
    public record Columns(boolean body, boolean content) {
        public static final Columns PLAIN = new Columns(false, false);

        /** The columns of a job with these output settings. */
        public static Columns of(CrawlConfig.Output output) {
            return new Columns(output.storeBody(), output.content() != ContentFormat.NONE);
        }
    }

    /** How rows are written. */
    public enum Format {
        JSONL, CSV;

        /** {@code jsonl} or {@code csv}. */
        public static Format of(String name) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(name == null ? "" : name.strip())) {
                    return f;
                }
            }
            throw new IllegalArgumentException("format must be jsonl or csv, was '" + name + "'");
        }

        public String mediaType() {
            return this == CSV ? "text/csv; charset=utf-8" : "application/x-ndjson";
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private Export() {}

    /**
     * Writes rows one at a time, as they come; never all in memory. Neither closes the stream nor flushes it row by
     * row: {@link #flush} when the rows so far should be out.
     */
    public static final class Writer implements AutoCloseable {
        private final SequenceWriter rows;
        private final Format format;
        private final OutputStream out;
        private final int contentMaxChars;
        private long count;

        /** @param header write CSV's header line (not when appending to a file that has one) */
        public Writer(OutputStream out, Format format, Columns columns, boolean header) throws IOException {
            this(out, format, columns, header, Integer.MAX_VALUE);
        }

        /** @param contentMaxChars content longer than this is cut, and says so */
        public Writer(OutputStream out, Format format, Columns columns, boolean header, int contentMaxChars)
                throws IOException {
            this.format = format;
            this.out = out;
            this.contentMaxChars = contentMaxChars;
            if (format == Format.CSV) {
                CsvSchema.Builder schema = CsvSchema.builder();
                COLUMNS.forEach(schema::addColumn);
                if (columns.content()) {
                    CONTENT_COLUMNS.forEach(schema::addColumn);
                }
                if (columns.body()) {
                    schema.addColumn("body").addColumn("bodyEncoding");
                }
                CsvSchema built = header ? schema.build().withHeader() : schema.build().withoutHeader();
                rows = rowsOf(CSV.writer(built)).writeValues(out);
            } else {
                rows = rowsOf(JSON.writer().withRootValueSeparator("\n")).writeValues(out);
            }
        }

        public void write(PageRecord page) throws IOException {
            rows.write(row(page, format, contentMaxChars));
            count++;
        }

        public void flush() throws IOException {
            rows.flush();
        }

        /** Rows written so far. */
        public long count() {
            return count;
        }

        /** Ends the last JSON line; leaves the stream open. */
        @Override
        public void close() throws IOException {
            rows.close();
            if (format == Format.JSONL && count > 0) {
                out.write('\n');
            }
        }
    }

    /** A change event as JSON shows it (the SSE stream, the webhook, {@code export --changes}), fields in order. */
    public static Map<String, Object> rowOf(Change c) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", c.id());
        row.put("job", c.jobId());
        row.put("url", c.url());
        row.put("kind", c.kind().label());
        row.put("at", c.at().toString());
        row.put("status", c.status());
        row.put("distance", c.distance());
        row.put("severity", c.severity());
        row.put("target", c.target());
        return row;
    }

    public static SequenceWriter sequence(List<String> columns, Format format, OutputStream out) throws IOException {
        if (format == Format.CSV) {
            CsvSchema.Builder schema = CsvSchema.builder();
            columns.forEach(schema::addColumn);
            return rowsOf(CSV.writer(schema.build().withHeader())).writeValues(out);
        }
        return rowsOf(JSON.writer().withRootValueSeparator("\n")).writeValues(out);
    }

    /**
     * A writer of rows onto a stream it neither closes nor flushes row by row: its caller flushes when it
     * wants to. A flush per row is a write per row, through gzip a block per row (an export gzipped so was 1.4×
     * the size), and as an HTTP body a first write too small for Javalin to compress.
     */
    private static ObjectWriter rowsOf(ObjectWriter writer) {
        return writer.without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    }

    public static void endLines(Format format, long rows, OutputStream out) throws IOException {
        if (format == Format.JSONL && rows > 0) {
            out.write('\n');
        }
    }

    /** A value as one line of JSON. */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON-writable: " + e.getOriginalMessage(), e);
        }
    }

    /** One row as JSON shows it, columns in order. */
    public static Map<String, Object> rowOf(PageRecord page) {
        return row(page, Format.JSONL, Integer.MAX_VALUE);
    }

    /** One row as a map, columns in order. */
    public static Map<String, Object> row(PageRecord p, Format format, int contentMaxChars) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("url", p.url());
        row.put("depth", p.depth());
        row.put("status", p.status());
        row.put("outcome", p.outcome().label());
        row.put("contentType", p.contentType());
        row.put("title", p.title());
        row.put("bytes", p.bytes());
        row.put("fetchMs", Math.round(p.fetchMillis() * 10) / 10.0);
        row.put("fetchedAt", p.fetchedAt().toString());
        row.put("failure", p.failure());
        row.put("detail", p.detail());
        row.put("referrer", p.referrer());
        row.put("outlinks", format == Format.CSV ? String.join(" ", p.outlinks()) : p.outlinks());
        row.put("fields", format == Format.CSV ? json(p.fields()) : p.fields());
        row.put("canonical", p.canonical());
        row.put("noindex", p.noindex());
        row.put("attempts", p.attempts());
        row.put("etag", p.etag());
        row.put("lastModified", p.lastModified());
        row.put("digest", p.digest());
        row.put("simhash", p.simhash() == null ? null : HexFormat.of().toHexDigits(p.simhash()));
        if (p.content() != null) {
            putContent(p.content().cut(contentMaxChars), row);
        }
        if (p.body() != null) {
            boolean text = isText(p.contentType());
            row.put("body", text ? PageEncoding.decode(p.body(), p.contentType())
                    : Base64.getEncoder().encodeToString(p.body()));
            row.put("bodyEncoding", text ? "text" : "base64");
        }
        return row;
    }

    /** A page's content and facts as rows and {@code POST /fetch} results show them, in order. */
    public static void putContent(PageContent c, Map<String, Object> row) {
        row.put("content", c.text());
        row.put("lang", c.lang());
        row.put("description", c.description());
        row.put("author", c.author());
        row.put("published", c.published());
    }

    private static String json(Map<String, Object> fields) {
        try {
            return fields.isEmpty() ? "" : JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            return "";
        }
    }

    private static boolean isText(@Nullable String contentType) {
        String t = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return t.startsWith("text/") || t.contains("xml") || t.contains("json") || t.contains("javascript");
    }
}
