package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.Hooks;
import dev.loomcrawl.crawler.values.ConfigCodec;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.JobRow;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A stored job run again in the foreground, with the settings it was started with: {@code resume} and
 * {@code recrawl}; their arguments, as a picocli mixin.
 */
final class StoredJob {
    @Parameters(paramLabel = "JOB", description = "The job's id (see 'loomcrawl jobs').")
    long id;

    @Mixin
    DbOption db;

    @Option(names = "--output", paramLabel = "FILE", description = "Add every row stored from now on to FILE"
            + " (JSON Lines, or CSV for .csv, gzipped for .gz; '-' for stdout). resume first rewrites an existing FILE"
            + " from the database: every URL the job stored, once, every line whole (a killed crawl may have left a"
            + " cut line or rows it never committed).")
    @Nullable String output;
    @Mixin
    ReportOptions report;
    @Mixin
    ConnectionOptions connections;

    /** How the job runs again. */
    enum Run { RESUME, RECRAWL }

    /**
     * @param run {@code RECRAWL}: visit every stored URL of an ended job once more ({@link Crawler#recrawl});
     *     {@code RESUME}: continue an unfinished one ({@link Crawler#resume})
     */
    int run(CommandSpec spec, Run run) throws Exception {
        String db = this.db.db;
        boolean recrawl = run == Run.RECRAWL;
        CrawlConfig config;
        try (Database database = this.db.existing()) {
            JobRow row = database.job(id).orElseThrow(() -> new IllegalArgumentException("no job " + id + " in " + db));
            if (!recrawl && !row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " has ended (" + row.status() + "): nothing to resume"
                        + " ('loomcrawl recrawl " + id + "' visits its pages again)");
            }
            if (recrawl && row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " is " + row.status() + ": resume it instead"
                        + " (a continuous job revisits its pages by itself)");
            }
            config = ConfigCodec.fromJson(row.config());
            if (!recrawl) {
                RowOutput.rewrite(output, database, id);
            }
        }
        RowOutput rows = RowOutput.open(output, true, Export.Columns.of(config.output()), spec.commandLine().getOut());
        CrawlerOptions process = connections.on(new CrawlerOptions(config.politeness().perHostConcurrency(),
                config.execution().maxInFlight(), true, config.politeness().politenessKey(), true));
        return Foreground.run(spec, db, process, (crawler, listener) -> recrawl
                ? crawler.recrawl(id, new Hooks(null, listener))
                : crawler.resume(id, new Hooks(null, listener)), rows, report.json, report.quiet);
    }
}
