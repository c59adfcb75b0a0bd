package dev.loomcrawl.cli;

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
        return StoredJob.run(spec, db.db, id, output, report, true);
    }
}
