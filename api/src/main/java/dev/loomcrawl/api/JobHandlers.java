package dev.loomcrawl.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.ExecutionMode;
import dev.loomcrawl.crawler.PageRecord;
import dev.loomcrawl.crawler.PageStore;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** {@code /crawl} and its sub-resources. */
final class JobHandlers {
    private static final CsvMapper CSV = (CsvMapper) new CsvMapper().registerModule(new JavaTimeModule())
            .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final CsvSchema PAGE_CSV = pageSchema();

    /** Columns in the record's own order (Jackson's CSV default is alphabetical). */
    private static CsvSchema pageSchema() {
        CsvSchema.Builder columns = CsvSchema.builder();
        for (var component : PageRecord.class.getRecordComponents()) {
            columns.addColumn(component.getName());
        }
        return columns.build().withHeader();
    }

    private final Crawler crawler;
    private final PageStore store;
    private final ExecutionMode mode;
    private final int poolSize;

    JobHandlers(Crawler crawler, ExecutionMode mode, int poolSize) {
        this.crawler = crawler;
        this.store = crawler.store();
        this.mode = mode;
        this.poolSize = poolSize;
    }

    /** A JSON body, or 415 when it is not declared as JSON. */
    static <T> T body(Context ctx, Class<T> type) {
        String contentType = ctx.contentType();
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new ApiError(415, "unsupported_media_type", "send the body as Content-Type: application/json", null);
        }
        return Json.read(ctx.body(), type);
    }

    void create(Context ctx) throws IOException {
        CrawlRequest request = body(ctx, CrawlRequest.class);
        CrawlConfig config = request.toConfig(mode, poolSize); // everything checked before anything is created
        CrawlJob job = crawler.start(config, Json.MAPPER.writeValueAsString(CrawlRequest.of(config)));
        ctx.status(202).header("Location", "/crawl/" + job.id()).json(view(job.id()));
    }

    void list(Context ctx) {
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = intParam(ctx, "limit", 20, 1, 1_000);
        List<JobView> jobs = store.jobs(offset, limit).stream()
                .map(row -> JobView.of(row, crawler.job(row.id()), Json.MAPPER)).toList();
        ctx.json(Map.of("jobs", jobs, "offset", offset, "limit", limit, "total", store.countJobs()));
    }

    void show(Context ctx) {
        ctx.json(view(id(ctx)));
    }

    void cancel(Context ctx) {
        long id = id(ctx);
        JobView before = view(id);
        crawler.job(id).ifPresent(CrawlJob::cancel); // idempotent; a finished job stays as it ended
        ctx.status(before.status().equals("running") || before.status().equals("queued") ? 202 : 200).json(view(id));
    }

    void pages(Context ctx) {
        long id = id(ctx);
        requireJob(id);
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = intParam(ctx, "limit", 100, 1, 1_000);
        Integer status = ctx.queryParam("status") == null ? null : intParam(ctx, "status", 0, 0, 999);
        ctx.json(Map.of("pages", store.pages(id, offset, limit, status), "offset", offset, "limit", limit,
                "total", store.countPages(id, status)));
    }

    /** Every page of a job, streamed row by row: never all in memory. */
    void export(Context ctx) throws IOException {
        long id = id(ctx);
        requireJob(id);
        String format = ctx.queryParam("format") == null ? "jsonl" : ctx.queryParam("format");
        Integer status = ctx.queryParam("status") == null ? null : intParam(ctx, "status", 0, 0, 999);
        if (!format.equals("jsonl") && !format.equals("csv")) {
            throw ApiError.badRequest("format must be jsonl or csv, was '" + format + "'", "format");
        }
        ctx.contentType(format.equals("csv") ? "text/csv; charset=utf-8" : "application/x-ndjson")
                .header("Content-Disposition", "attachment; filename=\"crawl-" + id + "." + format + "\"");
        OutputStream out = ctx.outputStream();
        long[] rows = {0};
        try (SequenceWriter writer = format.equals("csv")
                ? CSV.writer(PAGE_CSV).without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValues(out)
                : Json.MAPPER.writer().withRootValueSeparator("\n").without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                        .writeValues(out)) {
            store.forEachPage(id, 0, Integer.MAX_VALUE, status, page -> {
                try {
                    writer.write(page);
                    rows[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        if (format.equals("jsonl") && rows[0] > 0) {
            out.write("\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    /** 404 for an unknown job; a plain lookup, no view built. */
    private void requireJob(long id) {
        if (store.job(id).isEmpty()) {
            throw ApiError.notFound("no job " + id);
        }
    }

    private JobView view(long id) {
        return store.job(id).map(row -> JobView.of(row, crawler.job(id), Json.MAPPER))
                .orElseThrow(() -> ApiError.notFound("no job " + id));
    }

    private static long id(Context ctx) {
        try {
            return Long.parseLong(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            throw ApiError.notFound("no job '" + ctx.pathParam("id") + "'");
        }
    }

    private static int intParam(Context ctx, String name, int otherwise, int min, int max) {
        String text = ctx.queryParam(name);
        if (text == null) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text);
            if (value < min || value > max) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(name + " must be a whole number from " + min + " to " + max + ", was '" + text + "'",
                    name);
        }
    }
}
