package dev.loomcrawl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.JobReport;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.Passwords;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomcrawl jobs}: the jobs in a database, newest first. */
@Command(name = "jobs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the jobs in a database, newest first: id, status, mode, pages, failed, started, seconds.")
final class JobsCommand implements Callable<Integer> {
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "Jobs shown at most (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "One JSON object per job, one per line.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (limit < 1 || limit > 100_000) {
            throw new IllegalArgumentException("--limit must be between 1 and 100000, was " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!Database.exists(db.db)) { // not made here: a mistyped --db leaves nothing behind
            if (!json) {
                out.println("no jobs in " + Passwords.hidden(db.db) + ": no database there yet");
            }
            return 0;
        }
        try (Database database = Database.open(db.db); Crawler crawler = new Crawler(database)) {
            List<JobReport> jobs = crawler.reports(0, limit);
            if (json) {
                ObjectMapper mapper = new ObjectMapper();
                for (JobReport job : jobs) {
                    out.println(mapper.writeValueAsString(row(job)));
                }
            } else if (jobs.isEmpty()) {
                out.println("no jobs in " + Passwords.hidden(db.db));
            } else {
                out.printf("%6s  %-9s  %-8s  %9s  %8s  %8s  %-19s  %9s  %s%n", "id", "status", "mode", "pages", "failed",
                        "skipped", "started", "seconds", "seeds");
                for (JobReport job : jobs) {
                    Map<String, Object> r = row(job);
                    out.printf("%6d  %-9s  %-8s  %,9d  %,8d  %,8d  %-19s  %9.1f  %s%n", job.id(), job.status(), r.get("mode"),
                            r.get("pages"), r.get("failed"), r.get("skipped"), STARTED.format(job.createdAt()),
                            r.get("seconds"), r.get("seeds"));
                }
            }
            out.flush();
        }
        return 0;
    }

    private static Map<String, Object> row(JobReport job) {
        JobSummary s = job.summary();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", job.id());
        r.put("status", job.status());
        r.put("mode", job.mode().equals("pool") ? "pool:" + job.poolSize() : job.mode());
        r.put("pages", job.progress() == null ? 0L : job.progress().pages());
        r.put("failed", job.progress() == null ? 0L : job.progress().failed());
        r.put("skipped", job.progress() == null ? 0L : job.progress().skipped());
        r.put("started", job.createdAt().toString());
        r.put("seconds", s == null ? (job.progress() == null ? 0.0 : job.progress().seconds()) : s.seconds());
        r.put("seeds", job.seeds().size() == 1 ? job.seeds().getFirst() : job.seeds().size() + " seeds");
        return r;
    }
}
