package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.store.Export;
import dev.loomcrawl.crawler.store.FindingsExport;
import dev.loomcrawl.crawler.store.PageStore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code loomcrawl export JOB}: a job's rows (or its links, changes, near-duplicates, politeness audit) as JSON Lines or CSV. */
@Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stream a job's rows from the database, as JSON Lines or CSV, to stdout or a file.")
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "JOB", description = "The job's id (see 'loomcrawl jobs').")
    long id;

    @Mixin
    DbOption db;

    @Option(names = "--format", paramLabel = "jsonl|csv",
            description = "jsonl (default) or csv; by default the output file's name decides.")
    String format;

    @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of stdout.")
    Path output;

    @Option(names = "--links", description = "The link graph instead: one 'from, to' row per link of every stored page.")
    boolean links;

    @Option(names = "--changes", description = "The job's change events instead (new, unchanged, changed, moved,"
            + " gone), in the order they were stored.")
    boolean changes;

    @Option(names = "--near-duplicates", description = "Groups of stored pages whose text is nearly the same"
            + " (SimHash within 3 bits) instead: one row per page of each group.")
    boolean nearDuplicates;

    @Option(names = "--politeness", description = "The job's politeness audit instead: per politeness key, the"
            + " requests made, the most in flight at once, the shortest gap, the Crawl-delay asked, Retry-After"
            + " windows and any request inside them, URLs robots.txt disallowed.")
    boolean politeness;

    @Override
    public Integer call() throws Exception {
        Export.Format chosen = format != null ? Export.Format.of(format)
                : output != null ? Export.Format.forFile(output.toString()) : Export.Format.JSONL;
        if ((links ? 1 : 0) + (changes ? 1 : 0) + (nearDuplicates ? 1 : 0) + (politeness ? 1 : 0) > 1) {
            throw new IllegalArgumentException("give one of --links, --changes, --near-duplicates and --politeness");
        }
        try (PageStore store = PageStore.open(db.db)) {
            if (store.jobs().find(id).isEmpty()) {
                throw new IllegalArgumentException("no job " + id + " in " + db.db); // Main.line hides a password
            }
            try (OutputStream out = open()) {
                long rows = links ? Export.links(store, id, chosen, out)
                        : changes ? FindingsExport.changes(store, id, chosen, out)
                        : nearDuplicates ? FindingsExport.nearDuplicates(store, id, chosen, out)
                        : politeness ? FindingsExport.politeness(store, id, chosen, out)
                        : Export.job(store, id, chosen, null, out);
                out.flush();
                if (output != null) {
                    String what = links ? "links" : changes ? "change events" : nearDuplicates ? "near-duplicate rows"
                            : politeness ? "politeness keys" : "rows";
                    spec.commandLine().getErr().printf("loomcrawl: %,d %s written to %s%n", rows, what, output);
                }
            }
        }
        return 0;
    }

    private OutputStream open() throws IOException {
        if (output == null) {
            return new TextStream(spec.commandLine().getOut());
        }
        if (output.toAbsolutePath().getParent() != null) {
            Files.createDirectories(output.toAbsolutePath().getParent());
        }
        return new BufferedOutputStream(Files.newOutputStream(output), 65_536);
    }
}
