package dev.loomcrawl.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code loomcrawl recrawl JOB}: visits every stored URL of an ended job once more, and exits. */
@Command(name = "recrawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Visit every stored URL of an ended job once more, conditionally (If-None-Match,"
                + " If-Modified-Since), with the settings it was started with; record what changed (see 'loomcrawl"
                + " export JOB --changes'), crawl links new on changed pages, and exit. For cron.")
final class RecrawlCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoredJob job;

    @Override
    public Integer call() throws Exception {
        return job.run(spec, StoredJob.Run.RECRAWL);
    }
}
