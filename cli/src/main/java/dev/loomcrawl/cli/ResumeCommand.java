package dev.loomcrawl.cli;

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
        return StoredJob.run(spec, db.db, id, output, report, false);
    }
}
