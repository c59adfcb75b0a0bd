package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.JobRow;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code loomcrawl export JOB}: a job's rows (or its links, changes, near-duplicates, politeness audit) as JSON
 * Lines or CSV; or its pages' main content as Markdown files, one per page.
 */
@Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Stream a job's rows from the database, as JSON Lines or CSV, to stdout or a file; or write"
                + " its pages' main content as one Markdown file each (--format=markdown --output=DIR).")
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "JOB", description = "The job's id (see 'loomcrawl jobs').")
    long id;

    @Mixin
    DbOption db;

    @Option(names = "--format", paramLabel = "jsonl|csv|markdown",
            description = "jsonl (default) or csv; by default the output file's name decides. markdown: one .md file"
                    + " per page with content (a job crawled with --content) into the --output directory, with front"
                    + " matter (url, title, fetchedAt, lang, description, author, published), named from the URL.")
    @Nullable String format;
    @Option(names = "--output", paramLabel = "FILE|DIR", description = "Write here instead of stdout ('-'): .jsonl,"
            + " .ndjson, .json or .csv, gzipped for a name ending .gz (a directory for --format=markdown).")
    @Nullable Path output;
    @Option(names = "--content-max-chars", paramLabel = "N", description = "Cut each page's content to this many"
            + " characters, saying so at its end (default: as stored).")
    @Nullable Integer contentMaxChars;
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
        if (contentMaxChars != null && contentMaxChars < 1) {
            throw new IllegalArgumentException("--content-max-chars must be at least 1, was " + contentMaxChars);
        }
        int maxChars = contentMaxChars == null ? Integer.MAX_VALUE : contentMaxChars;
        if (format != null && format.strip().equalsIgnoreCase("markdown")) {
            return markdown(maxChars);
        }
        Export.Format named = format == null ? null : rowFormat(format); // else the file's name says, or JSON Lines
        Path target = output == null || output.toString().equals("-") ? null : output; // '-' is stdout, as for crawl
        RowFile file = target == null ? null
                : named != null ? RowFile.as(named, target) : RowFile.of("--output", target);
        Export.Format chosen = file != null ? file.format() : named != null ? named : Export.Format.JSONL;
        if ((links ? 1 : 0) + (changes ? 1 : 0) + (nearDuplicates ? 1 : 0) + (politeness ? 1 : 0) > 1) {
            throw new IllegalArgumentException("give one of --links, --changes, --near-duplicates and --politeness");
        }
        try (Database database = db.existing()) {
            if (database.job(id).isEmpty()) {
                throw new IllegalArgumentException("no job " + id + " in " + db.db); // Main.line hides a password
            }
            try (OutputStream out = file == null ? new TextStream(spec.commandLine().getOut())
                    : file.open("--output", false)) {
                long rows = links ? database.exportLinks(id, chosen, out)
                        : changes ? database.exportChanges(id, chosen, out)
                        : nearDuplicates ? database.exportNearDuplicates(id, chosen, out)
                        : politeness ? database.exportPoliteness(id, chosen, out)
                        : database.exportJob(id, chosen, null, maxChars, out);
                out.flush();
                if (file != null) {
                    String what = links ? "links" : changes ? "change events" : nearDuplicates ? "near-duplicate rows"
                            : politeness ? "politeness keys" : "rows";
                    spec.commandLine().getErr().printf("loomcrawl: %,d %s written to %s%n", rows, what, output);
                }
            }
        }
        return 0;
    }

    /** The rows' format {@code name} asks for; refused naming every format this command takes, markdown too. */
    private static Export.Format rowFormat(String name) {
        try {
            return Export.Format.of(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--format must be " + Arrays.stream(Export.Format.values())
                    .map(Export.Format::label).collect(Collectors.joining(", ")) + " or markdown, was '" + name + "'");
        }
    }

    private int markdown(int maxChars) throws IOException {
        if (output == null) {
            throw new IllegalArgumentException("--format=markdown writes one file per page: give a directory with --output");
        }
        if (links || changes || nearDuplicates || politeness) {
            throw new IllegalArgumentException("--format=markdown writes pages' content: leave out --links, --changes,"
                    + " --near-duplicates and --politeness");
        }
        if (Files.exists(output) && !Files.isDirectory(output)) {
            throw new IllegalArgumentException("--output " + output + " is a file: --format=markdown needs a directory");
        }
        try (Database database = db.existing()) {
            JobRow row = database.job(id).orElseThrow(() -> new IllegalArgumentException("no job " + id + " in "
                    + db.db));
            if (!JobReport.Kept.of(row).content()) {
                throw new IllegalArgumentException("job " + id + " kept no content: crawl with --content=markdown (or"
                        + " \"content\": \"markdown\" in POST /crawl) to export it as Markdown");
            }
            long files = database.writeMarkdown(id, output, maxChars);
            spec.commandLine().getErr().printf("loomcrawl: %,d Markdown files written to %s%n", files, output);
        }
        return 0;
    }
}
