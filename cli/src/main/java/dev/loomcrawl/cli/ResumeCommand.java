package dev.loomcrawl.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code loomcrawl resume JOB}: continues an unfinished job, exactly as it was started. */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Continue an unfinished job (suspended with Ctrl-C, or left by a process that died) with the"
                + " settings it was started with: what it stored stays, the rest is fetched, each URL once.")
final class ResumeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoredJob job;

    @Override
    public Integer call() throws Exception {
        return Main.CHECK_ONLY ? 0 : job.run(spec, StoredJob.Run.RESUME);
    }
}
