package dev.loomcrawl.crawler.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.PageContent;
import dev.loomcrawl.crawler.values.PageRecord;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Page rows to and from JDBC, in the order of {@link Schema#PAGE_COLUMNS}. */
public final class Rows {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() {};

    private Rows() {}

    /** Row {@code p} into a statement whose parameters are {@link Schema#PAGE_COLUMNS}. */
    public static void bindPage(PreparedStatement ps, PageRecord p) throws SQLException {
        bindPage(ps, 1, p);
    }

    /**
     * Row {@code p} into the parameters of {@link Schema#PAGE_COLUMNS}, the first at {@code at}: its text fits
     * the columns ({@link PageRecord} cuts it).
     */
    public static void bindPage(PreparedStatement ps, int at, PageRecord p) throws SQLException {
        ps.setLong(at, p.jobId());
        ps.setString(at + 1, p.url());
        ps.setInt(at + 2, p.depth());
        ps.setString(at + 3, p.referrer());
        bindAnswer(ps, at + 4, p);
    }

    /**
     * What row {@code p}'s fetch found into the parameters of {@link Schema#ANSWER_COLUMNS}, the first at
     * {@code at}.
     *
     * @return the parameter after the last
     */
    static int bindAnswer(PreparedStatement ps, int at, PageRecord p) throws SQLException {
        ps.setInt(at, p.status());
        ps.setString(at + 1, p.contentType());
        ps.setString(at + 2, p.title());
        ps.setInt(at + 3, p.bytes());
        ps.setDouble(at + 4, p.fetchMillis());
        ps.setInt(at + 5, p.attempts());
        ps.setString(at + 6, p.failure());
        ps.setString(at + 7, p.detail());
        ps.setTimestamp(at + 8, Timestamp.from(p.fetchedAt()));
        ps.setString(at + 9, p.thread());
        // Normalised URLs hold no line breaks: one per line is the cheapest faithful encoding.
        ps.setString(at + 10, p.outlinks().isEmpty() ? null : String.join("\n", p.outlinks()));
        ps.setString(at + 11, p.fields().isEmpty() ? null : json(p.fields()));
        ps.setString(at + 12, p.canonical());
        if (p.body() == null) {
            ps.setNull(at + 13, Types.BINARY);
        } else {
            ps.setBytes(at + 13, p.body());
        }
        ps.setDouble(at + 14, p.pageMillis());
        ps.setString(at + 15, p.etag());
        ps.setString(at + 16, p.lastModified());
        ps.setString(at + 17, p.digest());
        if (p.simhash() == null) {
            ps.setNull(at + 18, Types.BIGINT);
        } else {
            ps.setLong(at + 18, p.simhash());
        }
        bindContent(ps, at + 19, p.content());
        ps.setBoolean(at + 24, p.noindex());
        return at + 25;
    }

    /** A row's content and facts into five parameters from {@code at}: all null when the job keeps none. */
    private static void bindContent(PreparedStatement ps, int at, @Nullable PageContent c) throws SQLException {
        ps.setBytes(at, c == null ? null : c.text().getBytes(StandardCharsets.UTF_8)); // see Dialect.rowBytes
        ps.setString(at + 1, c == null ? null : c.lang());
        ps.setString(at + 2, c == null ? null : c.description());
        ps.setString(at + 3, c == null ? null : c.author());
        ps.setString(at + 4, c == null ? null : c.published());
    }

    static void bindAdmitted(PreparedStatement ps, Admitted a) throws SQLException {
        ps.setLong(1, a.jobId());
        ps.setString(2, a.url());
        ps.setInt(3, a.depth());
        ps.setInt(4, a.redirects());
        ps.setString(5, truncate(a.referrer(), 4096));
    }

    static PageRecord page(ResultSet rs, boolean withBody) throws SQLException {
        String outlinks = rs.getString("outlinks");
        String fields = rs.getString("fields");
        return PageRecord.of(rs.getLong("job_id"), rs.getString("url")).depth(rs.getInt("depth"))
                .status(rs.getInt("status")).contentType(rs.getString("content_type")).title(rs.getString("title"))
                .bytes(rs.getInt("bytes")).fetchMillis(rs.getDouble("fetch_ms")).attempts(rs.getInt("attempts"))
                .failure(rs.getString("failure"), rs.getString("detail"))
                .fetchedAt(rs.getTimestamp("fetched_at").toInstant()).thread(rs.getString("thread"))
                .referrer(rs.getString("referrer"))
                .outlinks(outlinks == null ? List.of() : Arrays.asList(outlinks.split("\n")))
                .fields(fields == null ? Map.of() : parse(fields)).canonical(rs.getString("canonical"))
                .body(withBody ? rs.getBytes("body") : null).pageMillis(rs.getDouble("page_ms"))
                .etag(rs.getString("etag")).lastModified(rs.getString("last_modified")).digest(rs.getString("digest"))
                .simhash(rs.getObject("simhash") == null ? null : rs.getLong("simhash")).content(content(rs))
                .noindex(rs.getBoolean("noindex")).build();
    }

    private static @Nullable PageContent content(ResultSet rs) throws SQLException {
        byte[] utf8 = rs.getBytes("content");
        String text = utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
        return text == null ? null : new PageContent(text, rs.getString("lang"), rs.getString("description"),
                rs.getString("author"), rs.getString("published"));
    }

    static JobRow job(ResultSet rs) throws SQLException {
        Timestamp finished = rs.getTimestamp("finished_at");
        String config = rs.getString("config");
        return new JobRow(rs.getLong("id"), rs.getTimestamp("created_at").toInstant(),
                finished == null ? null : finished.toInstant(), rs.getString("status"), rs.getString("mode"),
                rs.getInt("pool_size"), config != null ? config : rs.getString("spec"), rs.getString("summary"),
                rs.getDouble("active_seconds"), rs.getDouble("cpu_seconds"), rs.getInt("runs"),
                rs.getBoolean("cluster"), instant(rs.getTimestamp("alive_at")));
    }

    private static java.time.@Nullable Instant instant(@Nullable Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    static String json(Map<String, Object> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("fields are not JSON-writable: " + e.getOriginalMessage(), e);
        }
    }

    private static Map<String, Object> parse(String fields) {
        try {
            return JSON.readValue(fields, FIELDS);
        } catch (JsonProcessingException e) {
            return Map.of("unreadable", fields);
        }
    }

    static @Nullable String truncate(@Nullable String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
