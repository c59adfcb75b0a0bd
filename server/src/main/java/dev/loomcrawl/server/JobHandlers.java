package dev.loomcrawl.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.Jobs;
import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Freshness;
import dev.loomcrawl.crawler.values.JobRow;
import dev.loomcrawl.crawler.values.NodeSettings;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/** {@code /crawl} and its sub-resources. */
final class JobHandlers {
    private final Crawler crawler;
    /** The cluster node around the crawler once it {@link #joined} one, else null. */
    private volatile @Nullable ClusterNode node;
    private final Database db;
    private final ExecutionMode mode;
    private final int poolSize;
    private final int maxPoolSize;
    private final boolean guardPrivate;
    private final ContentFormat content;
    private final WarcFiles warcs;

    JobHandlers(Crawler crawler, ApiServer.Settings settings) {
        this.crawler = crawler;
        this.db = crawler.database();
        this.mode = settings.mode();
        this.poolSize = settings.poolSize();
        this.maxPoolSize = settings.maxPoolSize();
        this.guardPrivate = settings.guardPrivateAddresses(); // and a request may not say otherwise
        this.content = settings.content();
        this.warcs = new WarcFiles(settings.warcDir());
    }

    /** This server's crawler is a node of a cluster from now on: jobs go through the node. */
    void joined(ClusterNode node) {
        this.node = node;
    }

    /** This server's cluster node, if it is one. */
    Optional<ClusterNode> node() {
        return Optional.ofNullable(node);
    }

    /** This server's cluster node's settings, if it is one: where a cluster job's WARC part is kept. */
    private @Nullable NodeSettings nodeSettings() {
        ClusterNode cluster = node;
        return cluster == null ? null : cluster.settings();
    }

    /** Where jobs go: the node when there is one, else the crawler. */
    private Jobs jobs() {
        ClusterNode cluster = node;
        return cluster != null ? cluster : crawler;
    }

    void create(Context ctx) {
        CrawlConfig config = config(Json.object(ctx)); // everything checked before anything is created
        CrawlJob job;
        try {
            job = jobs().start(config);
        } catch (ConfigException e) {
            throw ApiError.of(e); // what only a cluster checks: its fetch deadline against the lease
        }
        ctx.status(202).header("Location", "/crawl/" + job.id()).json(view(job.id()));
    }

    /** A job's config from a request body, on the server's defaults; every problem is a 400 naming its field. */
    CrawlConfig config(JsonNode body) {
        CrawlConfig config;
        try {
            CrawlConfigBuilder defaults = CrawlConfig.builder().mode(mode).poolSize(poolSize)
                    .politenessKey(crawler.options().politenessKey())
                    .refusePrivateAddresses(guardPrivate).content(content);
            // On a cluster node a fetch must end well within a host lease: the default deadline fits it.
            ClusterNode cluster = node;
            if (cluster != null) {
                defaults.fetchDeadline(cluster.settings().defaultFetchDeadline());
            }
            ObjectNode fields = ((ObjectNode) body).deepCopy();
            if (warcs.kept(fields.remove("warc"))) {
                defaults.warcFile(warcs.newFile(cluster != null));
            }
            config = ConfigCodec.read(fields, defaults);
        } catch (ConfigException e) {
            throw ApiError.of(e);
        }
        if (guardPrivate && !config.fetch().refusePrivateAddresses()) {
            throw ApiError.badRequest(FetchBody.PRIVATE_GUARDED, "refusePrivateAddresses");
        }
        Freshness.Webhook webhook = config.freshness().webhook();
        if (guardPrivate && webhook != null) {
            String refused = Crawler.privateAddress(java.net.URI.create(webhook.url()).getHost());
            if (refused != null) {
                throw ApiError.badRequest("webhook.url is " + refused.replace("refused: ", "")
                        + ": this server refuses private addresses", "webhook.url");
            }
        }
        if (config.scope().seeds().size() > 1_000) {
            throw ApiError.badRequest("seeds must hold 1 to 1000 URLs, was " + config.scope().seeds().size(), "seeds");
        }
        if (config.execution().poolSize() > maxPoolSize) {
            throw ApiError.badRequest("poolSize must be at most " + maxPoolSize + " on this server (its --max-pool-size),"
                    + " was " + config.execution().poolSize(), "poolSize");
        }
        return config;
    }

    /** The job's WARC file (see {@link WarcFiles#serve}). */
    void warc(Context ctx) throws IOException {
        long id = id(ctx);
        warcs.serve(ctx, requireJob(id), nodeSettings(), crawler.job(id).map(CrawlJob::warcBytes)
                .orElse(OptionalLong.empty()));
    }

    void list(Context ctx) {
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = intParam(ctx, "limit", 20, 1, 1_000);
        List<JobView> jobs = jobs().reports(offset, limit).stream().map(this::view).toList();
        ctx.json(Map.of("jobs", jobs, "offset", offset, "limit", limit, "total", db.jobCount()));
    }

    void show(Context ctx) {
        ctx.json(view(id(ctx)));
    }

    void cancel(Context ctx) {
        long id = id(ctx);
        requireJob(id);
        boolean stopping = jobs().cancel(id); // durable before the answer: a kill now does not resume it
        ctx.status(stopping ? 202 : 200).json(view(id));
    }

    void pages(Context ctx) {
        long id = id(ctx);
        requireJob(id);
        int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
        int limit = intParam(ctx, "limit", 100, 1, 1_000);
        Integer status = ctx.queryParam("status") == null ? null : intParam(ctx, "status", 0, 0, 999);
        ctx.json(Map.of("pages", db.pages(id, offset, limit, status).stream().map(Export::rowOf).toList(),
                "offset", offset, "limit", limit, "total", db.countPages(id, status)));
    }

    /**
     * Every row of a job, streamed from the database row by row: never all in memory. Or, as {@code format=markdown},
     * its pages' main content as a ZIP archive of Markdown files, the files {@code export --format=markdown} writes.
     */
    void export(Context ctx) throws IOException {
        long id = id(ctx);
        JobRow row = requireJob(id);
        String asked = ctx.queryParam("format");
        if (asked != null && asked.strip().equalsIgnoreCase("markdown")) {
            if (!JobReport.Kept.of(row).content()) {
                throw ApiError.badRequest("job " + id + " kept no content: crawl with \"content\": \"markdown\" to"
                        + " export it as Markdown", "format");
            }
            ctx.contentType("application/zip")
                    .header("Content-Disposition", "attachment; filename=\"crawl-" + id + "-markdown.zip\"");
            db.exportMarkdown(id, Integer.MAX_VALUE, ctx.outputStream());
            return;
        }
        Export.Format format = format(ctx, "jsonl, csv or markdown");
        Integer status = ctx.queryParam("status") == null ? null : intParam(ctx, "status", 0, 0, 999);
        ctx.contentType(format.mediaType())
                .header("Content-Disposition", "attachment; filename=\"crawl-" + id + "." + format.label() + "\"");
        db.exportJob(id, format, status, ctx.outputStream());
    }

    /** The job's change events as Server-Sent Events, live (see {@link ChangeStream}). */
    void changes(Context ctx) throws Exception {
        long id = id(ctx);
        requireJob(id);
        new ChangeStream(db).stream(ctx, id);
    }

    /** The job's link graph: one {@code from, to} row per link of every stored page. */
    void links(Context ctx) throws IOException {
        long id = id(ctx);
        requireJob(id);
        Export.Format format = format(ctx, "jsonl or csv");
        ctx.contentType(format.mediaType())
                .header("Content-Disposition", "attachment; filename=\"links-" + id + "." + format.label() + "\"");
        db.exportLinks(id, format, ctx.outputStream());
    }

    /** @param accepted the route's formats, as its error names them */
    private static Export.Format format(Context ctx, String accepted) {
        String asked = ctx.queryParam("format");
        try {
            return Export.Format.of(asked == null ? "jsonl" : asked);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("format must be " + accepted + ", was '" + asked + "'", "format");
        }
    }

    /** The job's row; 404 for an unknown job. A plain lookup, no view built. */
    private JobRow requireJob(long id) {
        return db.job(id).orElseThrow(() -> ApiError.notFound("no job " + id));
    }

    private JobView view(long id) {
        return jobs().report(id).map(this::view).orElseThrow(() -> ApiError.notFound("no job " + id));
    }

    private JobView view(JobReport report) {
        return JobView.of(report, warcs, nodeSettings());
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
