package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.WebhookStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress line says what a job is doing: a bounded crawl's share and ETA, a continuous job's revisits. */
class ProgressTest {
    private final Progress progress = new Progress(new PrintWriter(new StringWriter()), false);

    private static JobProgress running(long queued, long due, boolean continuous, Map<String, Long> changes) {
        return new JobProgress(1, "running", 300, 2, 0, queued, due, 4, 4, 12.5, 24.0, 30.0, 10_000, continuous,
                Map.of(), changes);
    }

    private static JobProgress done(long pages) {
        return new JobProgress(1, "done", pages, 0, 0, 0, 0, 0, 0, 12.5, 24.0, 30.0, 10_000, false, Map.of(), Map.of());
    }

    @Test
    void aBoundedCrawlShowsItsShareQueueAndEta() {
        String line = progress.line(running(600, 600, false, Map.of()));
        assertThat(line).contains("300 pages (3% of 10,000)").contains("600 queued").contains("ETA");
    }

    /**
     * With no request on the wire the crawl waits: the last seconds' rate is no forecast, so no ETA; nor while a
     * host waits (resting for its server's Retry-After), which is named with why.
     */
    @Test
    void aCrawlWithNothingOnTheWireShowsNoEtaButWhatItWaitsFor() {
        JobProgress resting = new JobProgress(1, "running", 300, 2, 0, 10, 10, 0, 0, 35.0, 9.0, 0.4, 10_000, false,
                Map.of(), Map.of());
        assertThat(progress.line(resting)).contains("0 in flight").contains("10 queued").doesNotContain("ETA");
        // Requests on the wire to other hosts: still no ETA while a host rests, for it ends when the rest does
        assertThat(progress.line(running(600, 600, false, Map.of()),
                Map.of("127.0.0.1:8080", "Retry-After: resting 4 min 51 s more"), Map.of()))
                .contains("4 in flight").doesNotContain("ETA")
                .endsWith("600 queued  waiting: 127.0.0.1:8080 (Retry-After: resting 4 min 51 s more)");
    }

    /**
     * A host held below its limit by adaptive politeness is named with why; its URLs go on at its server's pace,
     * which the rate reads, so the ETA stays.
     */
    @Test
    void aHostHeldBackIsNamedWithWhyAndTheEtaStays() {
        assertThat(progress.line(running(600, 600, false, Map.of()), Map.of(),
                Map.of("127.0.0.1:8080", "3 of 8 in flight for 12 s: its answers slowed")))
                .contains("ETA").endsWith("  held back: 127.0.0.1:8080 (3 of 8 in flight for 12 s: its answers slowed)");
    }

    /** A page parsed for seconds is work in hand, not an idle crawl: URLs handed out beyond the requests are said. */
    @Test
    void urlsAnsweredAndNotYetStoredAreSaidBesideTheRequests() {
        JobProgress parsing = new JobProgress(1, "running", 300, 2, 0, 0, 0, 3, 1, 12.5, 24.0, 0.0, 10_000, false,
                Map.of(), Map.of());
        assertThat(progress.line(parsing)).contains("1 in flight, 2 parsing or storing");
        assertThat(progress.line(running(600, 600, false, Map.of()))).contains("4 in flight").doesNotContain("parsing");
    }

    /** A webhook whose receiver refuses events is named with why; one that takes them adds nothing. */
    @Test
    void aFailingWebhookIsSaidWithWhyAndAHealthyOneIsNot() {
        WebhookStatus failing = new WebhookStatus(41, 3, "answered HTTP 503", Instant.now().minusSeconds(40), 6);
        assertThat(Progress.webhook(failing)).matches("  webhook failing for 4\\d s, 6 tries: answered HTTP 503; 3 events wait");
        assertThat(Progress.webhook(new WebhookStatus(41, 0, null, null, 0))).isEmpty();
        assertThat(Progress.webhook(null)).isEmpty();
    }

    /** --max-pages is a cap: a crawl that ran out of links is whole, not "3% of 10,000"; one stopped by it says so. */
    @Test
    void aFinishedCrawlShowsItsShareOnlyWhenItsCapStoppedIt() {
        assertThat(progress.line(done(300))).contains("300 pages ").doesNotContain("% of").doesNotContain("ETA");
        assertThat(progress.line(done(10_000))).contains("10,000 pages (100% of 10,000)");
    }

    @Test
    void aContinuousJobShowsDueRevisitsAndWhatTheyFoundNeverAnEta() {
        String line = progress.line(running(300, 12, true,
                Map.of("new", 300L, "unchanged", 500L, "changed", 40L, "gone", 2L)));
        assertThat(line).contains("12 due of 300 waiting").contains("542 revisited")
                .contains("40 changed, 500 unchanged, 2 gone");
        assertThat(line).doesNotContain("ETA").doesNotContain("% of").doesNotContain("queued");
    }
}
