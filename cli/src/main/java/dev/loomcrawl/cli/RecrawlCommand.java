package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.ConfigCodec;
import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.store.JobRow;
import dev.loomcrawl.crawler.store.PageStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code loomcrawl recrawl JOB}: visits every stored URL of an ended job once more, and exits. */
@Command(name = "recrawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Visit every stored URL of an ended job once more, conditionally (If-None-Match,"
                + " If-Modified-Since), with the settings it was started with; record what changed (see 'loomcrawl"
                + " export JOB --changes'), crawl links new on changed pages, and exit. For cron.")
final class RecrawlCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "JOB", description = "The job's id (see 'loomcrawl jobs').")
    long id;

    @Mixin
    DbOption db;

    @Option(names = "--output", paramLabel = "FILE", description = "Add the rows of URLs new to the job to FILE"
            + " (JSON Lines, or CSV for .csv; '-' for stdout).")
    String output;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        CrawlConfig config;
        try (PageStore store = PageStore.open(db.db)) {
            JobRow row = store.job(id).orElseThrow(() -> new IllegalArgumentException("no job " + id + " in " + db.db));
            if (row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " is " + row.status() + ": resume it instead"
                        + " (a continuous job revisits its pages by itself)");
            }
            config = ConfigCodec.fromJson(row.config());
        }
        RowOutput rows = RowOutput.open(output, true, config.output().storeBody(), spec.commandLine().getOut());
        Crawler.Options process = new Crawler.Options(config.politeness().perHostConcurrency(),
                config.execution().maxInFlight(), true);
        return Foreground.run(spec, db.db, process,
                (crawler, listener) -> crawler.recrawl(id, new Crawler.Hooks(null, listener)), rows, report.json, report.quiet);
    }
}
