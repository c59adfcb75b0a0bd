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

/** {@code loomcrawl resume JOB}: continues an unfinished job, exactly as it was started. */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Continue an unfinished job (suspended with Ctrl-C, or left by a process that died) with the"
                + " settings it was started with: what it stored stays, the rest is fetched, each URL once.")
final class ResumeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "JOB", description = "The job's id (see 'loomcrawl jobs').")
    long id;

    @Mixin
    DbOption db;

    @Option(names = "--output", paramLabel = "FILE", description = "Add every row stored from now on to FILE"
            + " (JSON Lines, or CSV for .csv; '-' for stdout).")
    String output;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        CrawlConfig config;
        try (PageStore store = PageStore.open(db.db)) {
            JobRow row = store.job(id).orElseThrow(() -> new IllegalArgumentException("no job " + id + " in " + db.db));
            if (!row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " has ended (" + row.status() + "): nothing to resume");
            }
            config = ConfigCodec.fromJson(row.config());
        }
        RowOutput rows = RowOutput.open(output, true, config.output().storeBody(), spec.commandLine().getOut());
        Crawler.Options process = new Crawler.Options(config.politeness().perHostConcurrency(),
                config.execution().maxInFlight(), true);
        return Foreground.run(spec, db.db, process,
                (crawler, listener) -> crawler.resume(id, new Crawler.Hooks(null, listener)), rows, report.json, report.quiet);
    }
}
