package dev.loomcrawl.api;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.CrawlProgress;
import dev.loomcrawl.crawler.CrawlSummary;
import java.io.PrintWriter;
import java.time.Duration;

/** Live progress of a job on stderr: one updating line on a terminal, a line every few seconds in a log. */
final class Progress {
    private Progress() {}

    static CrawlSummary follow(CrawlJob job, PrintWriter err) throws InterruptedException {
        boolean terminal = System.console() != null;
        Duration every = terminal ? Duration.ofMillis(500) : Duration.ofSeconds(5);
        while (!job.await(every)) {
            String line = line(job.progress());
            if (terminal) {
                err.print("\r" + line + "   ");
            } else {
                err.println(line);
            }
            err.flush();
        }
        CrawlSummary summary = job.awaitSummary();
        err.print(terminal ? "\r" : "");
        err.println(line(job.progress()));
        return summary;
    }

    static String line(CrawlProgress p) {
        return String.format("%6.1fs  %,d pages  %,d failed  %,d queued  %,d in flight  %,.1f pages/s",
                p.seconds(), p.pages(), p.failed(), p.queued(), p.inFlight(), p.pagesPerSecond());
    }
}
