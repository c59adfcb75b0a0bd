package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Live progress of a job on stderr: one updating line on a terminal, a line every few seconds in a log.
 * It shows rows done and, for a bounded crawl, the share of {@code --max-pages} and an ETA (a continuous job,
 * which never ends, shows its revisits instead: due, revisited, changed, unchanged); the rate over
 * the last few seconds; requests really in flight (not tasks waiting for a pool thread); failures by kind,
 * and the first few failures as they happen. No progress-bar library: none knows these figures, and the
 * line is a dozen lines of formatting.
 */
final class Progress {
    private static final int FAILURES_SHOWN = 5;

    private final PrintWriter err;
    private final boolean quiet;
    private final boolean terminal = System.console() != null;
    private final ConcurrentHashMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> news = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failuresSeen = new AtomicInteger();

    Progress(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    /** Every stored row passes here, on its task's thread: count failures, queue the first few to print. */
    void stored(PageRecord row) {
        if (row.outcome() != Outcome.FAILED) {
            return;
        }
        failures.computeIfAbsent(row.failure(), k -> new LongAdder()).increment();
        int n = failuresSeen.incrementAndGet();
        if (n <= FAILURES_SHOWN) {
            news.add("  failed: " + row.url() + "  " + row.failure() + (row.detail() == null ? "" : ": " + row.detail()));
        } else if (n == FAILURES_SHOWN + 1) {
            news.add("  (more failures are counted below and listed in the summary)");
        }
    }

    JobSummary follow(CrawlJob job) throws InterruptedException {
        if (quiet) {
            return job.awaitSummary();
        }
        Duration every = terminal ? Duration.ofMillis(500) : Duration.ofSeconds(5);
        while (!job.await(every)) {
            printNews();
            CrawlJob.Waits waits = job.waits();
            String line = line(job.progress(), waits.waiting(), waits.heldBack()) + webhook(job.webhook());
            if (terminal) {
                err.print("\r" + line + "\u001b[K");
            } else {
                err.println(line);
            }
            err.flush();
        }
        JobSummary summary = job.awaitSummary();
        printNews();
        err.print(terminal ? "\r" : "");
        err.println(line(job.progress()) + (terminal ? "\u001b[K" : ""));
        err.flush();
        return summary;
    }

    private void printNews() {
        String item;
        boolean any = false;
        while ((item = news.poll()) != null) {
            err.print(terminal && !any ? "\r\u001b[K" : "");
            err.println(item);
            any = true;
        }
    }

    String line(JobProgress p) {
        return line(p, Map.of(), Map.of());
    }

    /**
     * The line, with the hosts the job waits for, if any ({@code waiting}: host, why): then no ETA, for a host
     * resting minutes for its server's {@code Retry-After} ends when its rest does, whatever the last seconds' rate.
     * Hosts adaptive politeness holds below their limit ({@code heldBack}) go on at their servers' pace, which the
     * rate reads: the ETA stays.
     */
    String line(JobProgress p, Map<String, String> waiting, Map<String, String> heldBack) {
        StringBuilder b = new StringBuilder(String.format("%6.1fs  %,d pages", p.seconds(), p.pages()));
        long done = p.pages() + p.failed();
        boolean running = p.status().equals("running");
        // --max-pages is a cap, not a total: a crawl that found fewer pages ended whole, not at 10% of something
        if (p.maxPages() > 0 && p.maxPages() < 100_000_000 && !p.continuous() && (running || done >= p.maxPages())) {
            b.append(String.format(" (%.0f%% of %,d)", 100.0 * done / p.maxPages(), p.maxPages()));
        }
        b.append(String.format("  %,d failed", p.failed()));
        Map<String, Long> byKind = new TreeMap<>();
        failures.forEach((k, v) -> byKind.put(k, v.sum()));
        if (!byKind.isEmpty()) {
            b.append(' ').append(byKind.toString().replace('{', '(').replace('}', ')'));
        }
        if (p.skipped() > 0) {
            b.append(String.format("  %,d skipped", p.skipped()));
        }
        // While it runs, the rate of the last seconds; at the end, the whole run's average.
        b.append(String.format("  %,.0f requests/s%s  %,d in flight",
                running ? p.recentPagesPerSecond() : p.pagesPerSecond(), running ? "" : " on average", p.fetching()));
        long working = p.inFlight() - p.fetching(); // handed out with no request on the wire: answered, not yet stored
        if (running && working > 0) {
            b.append(String.format(", %,d parsing or storing", working));
        }
        if (p.continuous()) {
            b.append(revisits(p)); // it never ends: what it is doing is revisiting, and what the revisits found
        } else {
            b.append(String.format("  %,d queued", p.queued()));
            String eta = eta(p);
            if (eta != null && waiting.isEmpty()) {
                b.append("  ETA ").append(eta);
            }
        }
        return b.append(hosts("waiting", waiting)).append(hosts("held back", heldBack)).toString();
    }

    /** A continuous job's revisits: URLs due now of those waiting, revisits done, and what they found. */
    static String revisits(JobProgress p) {
        Map<String, Long> found = new TreeMap<>(p.changes());
        found.remove("new");
        long revisited = found.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder(String.format("  %,d due of %,d waiting  %,d revisited", p.due(),
                p.queued(), revisited));
        b.append(String.format(" (%,d changed, %,d unchanged", found.getOrDefault("changed", 0L),
                found.getOrDefault("unchanged", 0L)));
        for (String kind : new String[] {"moved", "gone"}) {
            if (found.getOrDefault(kind, 0L) > 0) {
                b.append(String.format(", %,d %s", found.get(kind), kind));
            }
        }
        return b.append(')').toString();
    }

    /**
     * Hosts and why, under {@code label}: those whose URLs wait for something other than their turn (a crawl that
     * seems idle says so), or those held back (a crawl slower than its per-host limit says why).
     */
    static String hosts(String label, Map<String, String> hosts) {
        StringBuilder b = new StringBuilder();
        hosts.forEach((host, why) -> b.append(b.isEmpty() ? "  " + label + ": " : "; ").append(host).append(" (")
                .append(why).append(')'));
        return b.toString();
    }

    /** A webhook whose receiver does not take events, and why; nothing while it takes them. */
    static String webhook(@Nullable WebhookStatus webhook) {
        if (webhook == null || webhook.failing() == null) {
            return "";
        }
        return String.format("  webhook failing for %d s, %,d tries: %s; %,d%s events wait",
                webhook.failingFor(Instant.now()).toSeconds(), webhook.tries(), webhook.failing(), webhook.pending(),
                webhook.pending() >= WebhookStatus.COUNTED ? "+" : "");
    }

    /**
     * Time left at the recent rate, when the crawl is bounded and fetching; null otherwise. With no request on the
     * wire the crawl waits (a rest its server asked for, a pause: {@link #hosts} says), and the last seconds'
     * rate says nothing of when it goes on.
     */
    static @Nullable String eta(JobProgress p) {
        long done = p.pages() + p.failed();
        long left = Math.min(p.maxPages() - done, p.queued() + p.inFlight());
        if (p.recentPagesPerSecond() <= 0 || p.fetching() == 0 || left <= 0 || !p.status().equals("running")) {
            return null;
        }
        long seconds = Math.round(left / p.recentPagesPerSecond());
        return seconds < 60 ? seconds + "s" : String.format("%dm%02ds", seconds / 60, seconds % 60);
    }
}
