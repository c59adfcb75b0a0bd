package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.crawler.values.StoredListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A job run in the foreground of a terminal ({@code crawl}, {@code resume}): progress on stderr, a summary
 * at the end, Ctrl-C to suspend (twice to stop at once), SIGTERM to suspend gracefully, and an exit code
 * that says how it went: 0 done, 1 failed or nothing could be fetched, 130 suspended.
 */
final class Foreground {
    static final Duration GRACE = Duration.ofSeconds(10);
    static final int SUSPENDED = 130;

    private Foreground() {}

    /**
     * @param start starts (or resumes) the job on the crawler, with the listener every stored row must go to
     */
    static int run(CommandSpec spec, String db, CrawlerOptions options,
            BiFunction<Crawler, StoredListener, CrawlJob> start, RowOutput rows, boolean json, boolean quiet)
            throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter summaryOut = rows.toStdout() ? err : out; // stdout never mixes rows and a summary
        try (rows; Database database = Database.open(db); Crawler crawler = new Crawler(database, options)) {
            Progress progress = new Progress(err, quiet);
            StoredListener toRows = rows.listener();
            CrawlJob job = start.apply(crawler, toRows == null ? progress::stored : row -> {
                toRows.stored(row);
                progress.stored(row);
            });
            String resume = "./loomcrawl resume " + job.id()
                    + (db.equals(DbOption.DEFAULT) ? "" : " --db='" + Passwords.hidden(db) + "'");
            if (!quiet) {
                err.println("loomcrawl: job " + job.id() + " running ("
                        + job.config().execution().mode().label() + " mode, "
                        + Passwords.hidden(db) + "); Ctrl-C suspends it");
                err.flush();
            }
            Interrupts interrupts = onCtrlC(err, crawler);
            // SIGTERM (and Ctrl-C where no handler could be installed): suspend, then close the store before
            // the JVM halts.
            Thread hook = new Thread(() -> {
                suspend(crawler, GRACE);
                rows.closeQuietly();
                database.close();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            JobSummary summary;
            try {
                summary = progress.follow(job);
            } finally {
                if (interrupts != null) {
                    interrupts.uninstall();
                }
                removeHook(hook);
            }
            return ended(job, summary, resume, json, summaryOut, err);
        }
    }

    /** Ctrl-C suspends the job (fetches in flight finish), a second stops it at once; null where it cannot be caught. */
    private static @Nullable Interrupts onCtrlC(PrintWriter err, Crawler crawler) {
        return Interrupts.install(new Interrupts.Actions() {
            @Override
            public void first() {
                err.println();
                err.println("loomcrawl: suspending: fetches in flight finish and are stored (Ctrl-C again to stop"
                        + " at once)");
                err.flush();
                suspend(crawler, GRACE);
            }

            @Override
            public void second() {
                err.println("loomcrawl: stopping now; what was in flight is fetched again on resume");
                err.flush();
                suspend(crawler, Duration.ZERO);
            }
        });
    }

    /** The job's end as the user sees it: the summary (a table or JSON), why it failed, and the exit code. */
    private static int ended(CrawlJob job, JobSummary summary, String resume, boolean json, PrintWriter summaryOut,
            PrintWriter err) {
        if (job.suspended()) {
            err.println("loomcrawl: job " + job.id() + " suspended with " + summary.fetched() + " URLs done; resume it"
                    + " with: " + resume);
            return SUSPENDED;
        }
        if (json) {
            // The mapper that stored the summary knows its class: a new one took ~15 ms of a cold exit.
            summaryOut.println(summary.toJson());
        } else {
            SummaryTable.print(summary, summaryOut);
        }
        summaryOut.flush();
        if (job.failureMessage().isPresent()) {
            err.println("loomcrawl: job failed: " + job.failureMessage().get());
            return 1;
        }
        if (summary.pages() == 0) { // ended otherwise (cancelled) before a single page
            err.println("loomcrawl: " + summary.whyNoPage());
            return 1;
        }
        return 0;
    }

    private static void suspend(Crawler crawler, Duration grace) {
        try {
            crawler.suspend(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and will finish the job
        }
    }
}
