package dev.loomcrawl.crawler.revisit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Hooks;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.TestSite;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Continuous jobs and recrawls against WireMock: conditional requests, every kind of change event, rows
 * rewritten in place (never a second row for a URL), the schedule kept across a restart.
 */
class RevisitTest {
    private static final AtomicLong DB = new AtomicLong();
    private static final String TEXT = "The river rose through the night and by morning the lower town was under water."
            + " Volunteers carried sandbags to the bridge while the council met in the school hall.";

    private PageStore store;
    private Crawler crawler;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:revisit" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
    }

    /** A site of five pages, one per way a page can change, all linked from its root. */
    static void site(TestSite site) {
        site.stub("/", TestSite.html("<title>home</title><a href=/same>s</a><a href=/major>m</a><a href=/minor>n</a>"
                + "<a href=/gone>g</a><a href=/moved>v</a>"));
        site.server.stubFor(get(urlPathEqualTo("/same")).atPriority(1)
                .withHeader("If-None-Match", equalTo("\"s1\"")).willReturn(aResponse().withStatus(304)));
        site.server.stubFor(get(urlPathEqualTo("/same")).atPriority(5)
                .willReturn(TestSite.html("<p>" + TEXT + "</p>").withHeader("ETag", "\"s1\"")));
        site.stub("/major", TestSite.html("<title>major v1</title><p>" + TEXT + "</p>"));
        site.stub("/minor", TestSite.html("<p>" + TEXT + "</p><p>updated 10:00:01, 1204 readers</p>"));
        site.stub("/gone", TestSite.html("<p>here for now</p>"));
        site.stub("/moved", TestSite.html("<p>here for now too</p>"));
        site.stub("/target", TestSite.html("<title>target</title>"));
    }

    /** Each page changes its own way. */
    static void change(TestSite site) {
        site.stub("/major", TestSite.html("<title>major v2</title><p>An entirely different story: the election, the"
                + " turnout, what the mayor said on the steps of the town hall, and who will sit on the council.</p>"));
        site.stub("/minor", TestSite.html("<p>" + TEXT + "</p><p>updated 10:05:17, 1219 readers</p>"));
        site.stub("/gone", aResponse().withStatus(410));
        site.stub("/moved", aResponse().withStatus(301).withHeader("Location", "/target"));
    }

    private List<Change> events(long job) {
        return store.changes().after(job, 0, 10_000);
    }

    private Map<String, List<Change>> byPath(TestSite site, long job) {
        return events(job).stream().collect(Collectors.groupingBy(c -> c.url().replace(site.url(""), "")));
    }

    @Test
    void aContinuousJobReportsEveryKindOfChangeAndRewritesRowsInPlace() throws Exception {
        try (TestSite site = new TestSite()) {
            site(site);
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).build());
            await().atMost(Duration.ofSeconds(20)).until(() -> events(job.id()).size() >= 6);
            assertThat(events(job.id())).extracting(Change::kind).containsOnly(Change.Kind.NEW);
            change(site);

            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Map<String, List<Change>> by = byPath(site, job.id());
                return has(by, "/major", Change.Kind.CHANGED) && has(by, "/minor", Change.Kind.CHANGED)
                        && has(by, "/gone", Change.Kind.GONE) && has(by, "/moved", Change.Kind.MOVED)
                        && has(by, "/target", Change.Kind.NEW) && has(by, "/same", Change.Kind.UNCHANGED);
            });
            job.cancel();
            job.awaitSummary();

            Map<String, List<Change>> by = byPath(site, job.id());
            Change major = last(by, "/major", Change.Kind.CHANGED);
            assertThat(major.severity()).isEqualTo("major");
            assertThat(major.distance()).isGreaterThan(3);
            Change minor = last(by, "/minor", Change.Kind.CHANGED);
            assertThat(minor.severity()).isEqualTo("minor");
            assertThat(minor.distance()).isLessThanOrEqualTo(3);
            assertThat(last(by, "/moved", Change.Kind.MOVED).target()).isEqualTo(site.url("/target"));
            assertThat(last(by, "/gone", Change.Kind.GONE).status()).isEqualTo(410);
            assertThat(last(by, "/same", Change.Kind.UNCHANGED).status()).isEqualTo(304); // answered without a body
            assertThat(site.counter.headerValues("If-None-Match")).contains("\"s1\""); // asked conditionally
            // Each URL has one NEW, and after GONE or MOVED no more visits.
            by.forEach((path, events) -> assertThat(events.stream().filter(c -> c.kind() == Change.Kind.NEW)).hasSize(1));
            assertThat(by.get("/gone").getLast().kind()).isEqualTo(Change.Kind.GONE);
            assertThat(by.get("/moved").getLast().kind()).isEqualTo(Change.Kind.MOVED);
            // Ids grow in the order events were stored.
            List<Long> ids = events(job.id()).stream().map(Change::id).toList();
            assertThat(ids).isSorted().doesNotHaveDuplicates();

            Map<String, PageRecord> rows = rows(site, job.id());
            assertThat(store.countPages(job.id(), null)).isEqualTo(rows.size()).isEqualTo(7); // one row per URL
            assertThat(rows.get("/major").title()).isEqualTo("major v2");
            assertThat(rows.get("/gone").status()).isEqualTo(410);
            assertThat(rows.get("/same").etag()).startsWith("\"s1"); // as sent: Jetty marks a gzipped one "s1--gzip"
            assertThat(rows.get("/same").digest()).hasSize(64);
            assertThat(rows.get("/same").simhash()).isNotNull();
        }
    }

    @Test
    void aRecrawlVisitsEveryStoredUrlOnceAndEnds() throws Exception {
        try (TestSite site = new TestSite()) {
            site(site);
            JobSummary first = crawler.start(CrawlConfig.builder().seed(site.url("/")).respectRobots(false).build())
                    .awaitSummary();
            assertThat(events(first.jobId())).isEmpty(); // a one-pass job keeps no feed
            change(site);

            CrawlJob again = crawler.recrawl(first.jobId(), Hooks.NONE);
            again.awaitSummary();
            Map<String, List<Change>> by = byPath(site, first.jobId());
            assertThat(by.get("/").getFirst().kind()).isEqualTo(Change.Kind.UNCHANGED);
            assertThat(by.get("/major")).extracting(Change::kind).containsExactly(Change.Kind.CHANGED);
            assertThat(by.get("/gone")).extracting(Change::kind).containsExactly(Change.Kind.GONE);
            assertThat(by.get("/moved")).extracting(Change::kind).containsExactly(Change.Kind.MOVED);
            assertThat(by.get("/target")).extracting(Change::kind).containsExactly(Change.Kind.NEW);
            assertThat(by.values()).allSatisfy(events -> assertThat(events).hasSize(1)); // once each
            assertThat(store.jobs().find(first.jobId()).orElseThrow().status()).isEqualTo("done");
            assertThat(store.countPages(first.jobId(), null)).isEqualTo(7);

            // A second recrawl: what was gone still is, what moved moves where it moved. An event is a change of
            // state, so both are unchanged now.
            crawler.recrawl(first.jobId(), Hooks.NONE).awaitSummary();
            by = byPath(site, first.jobId());
            assertThat(by.get("/gone")).extracting(Change::kind).containsExactly(Change.Kind.GONE, Change.Kind.UNCHANGED);
            assertThat(by.get("/moved")).extracting(Change::kind).containsExactly(Change.Kind.MOVED, Change.Kind.UNCHANGED);
        }
    }

    /** A validator too long to keep whole is not kept: sent back cut, it would name no version of the page. */
    @Test
    void aValidatorTooLongToKeepWholeIsNeverSentBackCut() throws Exception {
        try (TestSite site = new TestSite()) {
            String etag = "\"" + "e".repeat(2_000) + "\"";
            String lastModified = "Tue, 15 Nov 1994 08:12:31 GMT" + " (and some words a server added)".repeat(3);
            site.stub("/", TestSite.html("<p>" + TEXT + "</p>").withHeader("ETag", etag)
                    .withHeader("Last-Modified", lastModified));
            JobSummary first = crawler.start(CrawlConfig.builder().seed(site.url("/")).respectRobots(false).build())
                    .awaitSummary();
            assertThat(store.pages(first.jobId(), 0, 10, null)).singleElement()
                    .satisfies(row -> assertThat(row.etag()).isNull())
                    .satisfies(row -> assertThat(row.lastModified()).isNull());

            crawler.recrawl(first.jobId(), Hooks.NONE).awaitSummary();
            assertThat(site.counter.requests("/")).isEqualTo(2);
            assertThat(site.counter.headerValues("If-None-Match")).isEmpty();
            assertThat(site.counter.headerValues("If-Modified-Since")).isEmpty();
        }
    }

    @Test
    void aResumedContinuousJobKeepsItsScheduleAndItsFeed() throws Exception {
        try (TestSite site = new TestSite()) {
            site(site);
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).respectRobots(false)
                    .revisit(Duration.ofSeconds(1), Duration.ofSeconds(2)).build());
            await().atMost(Duration.ofSeconds(20)).until(() -> events(job.id()).size() >= 6);
            crawler.close(); // suspends: the job stays unfinished
            assertThat(store.jobs().find(job.id()).orElseThrow().unfinished()).isTrue();
            change(site);

            crawler = new Crawler(store);
            crawler.resume(job.id());
            await().atMost(Duration.ofSeconds(30)).until(() -> has(byPath(site, job.id()), "/major", Change.Kind.CHANGED));
            Map<String, List<Change>> by = byPath(site, job.id());
            by.forEach((path, events) -> assertThat(events.stream().filter(c -> c.kind() == Change.Kind.NEW))
                    .as(path).hasSizeLessThanOrEqualTo(1)); // stored URLs are revisited, never new again
            assertThat(store.countPages(job.id(), null)).isLessThanOrEqualTo(7);
        }
    }

    private Map<String, PageRecord> rows(TestSite site, long job) {
        return store.pages(job, 0, 100, null).stream()
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), Function.identity()));
    }

    static boolean has(Map<String, List<Change>> by, String path, Change.Kind kind) {
        return by.getOrDefault(path, List.of()).stream().anyMatch(c -> c.kind() == kind);
    }

    static Change last(Map<String, List<Change>> by, String path, Change.Kind kind) {
        return by.get(path).stream().filter(c -> c.kind() == kind).reduce((a, b) -> b).orElseThrow();
    }
}
