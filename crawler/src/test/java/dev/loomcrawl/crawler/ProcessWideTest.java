package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.FetchOutcome;
import dev.loomcrawl.crawler.values.FetchRequest;
import dev.loomcrawl.testkit.PinningWatch;
import dev.loomcrawl.testkit.TestSite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What belongs to the process, not to a job: politeness, thread figures, a job's stored settings. */
@ExtendWith(PinningWatch.class)
class ProcessWideTest {
    private static final AtomicLong DB = new AtomicLong();
    private PageStore store;
    private Crawler crawler;

    private Crawler open(CrawlerOptions options) {
        store = PageStore.open("jdbc:h2:mem:process" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store, options);
        return crawler;
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
    }

    /** Two jobs on the same host, each allowed 4: together they still never have more than 4 in flight there. */
    @Test
    void twoJobsShareTheProcessPerHostLimit() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        try (TestSite site = new TestSite().tree(127, 60)) {
            CrawlConfig config = CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(4).build();
            CrawlJob one = crawler.start(config);
            CrawlJob two = crawler.start(config);
            assertThat(one.awaitSummary().pages()).isEqualTo(127);
            assertThat(two.awaitSummary().pages()).isEqualTo(127);
            assertThat(site.counter.maxInFlight.get()).isEqualTo(4); // counted at the server: used to the full, never over
        }
    }

    /**
     * A pool job takes a lease (and its host permit) only when one of its threads is free: its URLs wait in the
     * frontier, not in an executor queue holding permits a virtual job beside it could use.
     */
    @Test
    void aPoolJobHoldsNoHostPermitWhileItWaitsForAThread() throws Exception {
        open(new CrawlerOptions(8, 10_000, true));
        try (TestSite site = new TestSite().tree(127, 80)) {
            CrawlConfigBuilder config = CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(8);
            AtomicLong mostLeased = new AtomicLong();
            CrawlJob[] pool = new CrawlJob[1];
            pool[0] = crawler.start(config.mode(ExecutionMode.POOL).poolSize(2).build(), new Hooks(null,
                    row -> mostLeased.accumulateAndGet(pool[0] == null ? 0 : pool[0].progress().inFlight(), Math::max)));
            CrawlJob virtual = crawler.start(config.mode(ExecutionMode.VIRTUAL).build());
            assertThat(pool[0].awaitSummary().pages()).isEqualTo(127);
            assertThat(virtual.awaitSummary().pages()).isEqualTo(127);
            // Two threads, plus the one lease the dispatcher holds while it waits to hand it to a free thread.
            assertThat(mostLeased.get()).isBetween(1L, 3L);
            assertThat(site.counter.maxInFlight.get()).isEqualTo(8); // the virtual job used the permits the pool did not
        }
    }

    /** A job's own limit can only be lower than the process's. */
    @Test
    void aJobAskingForMoreThanTheProcessAllowsGetsTheProcessLimit() throws Exception {
        open(new CrawlerOptions(3, 10_000, true));
        try (TestSite site = new TestSite().tree(63, 60)) {
            crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(8).build())
                    .awaitSummary();
            assertThat(site.counter.maxInFlight.get()).isEqualTo(3);
        }
    }

    /** One-off fetches take the same permits as the crawl running beside them. */
    @Test
    void oneOffFetchesShareTheLimitWithACrawl() throws Exception {
        open(new CrawlerOptions(4, 10_000, true));
        try (TestSite site = new TestSite().tree(63, 100)) {
            CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(4)
                    .respectRobots(false).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> job.progress().fetching() >= 2);
            List<CrawlUrl> urls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                urls.add(CrawlUrl.of(site.url("/p/" + (i % 63) + "?batch=" + i)));
            }
            List<FetchOutcome> fetched = crawler.fetchAll(new FetchRequest(urls, Duration.ofSeconds(30), false, true, ContentRequest.NONE));
            assertThat(fetched).allSatisfy(o -> assertThat(o.outcome()).isIn("ok", "failed"));
            job.awaitSummary();
            assertThat(site.counter.maxInFlight.get()).isLessThanOrEqualTo(4);
        }
    }

    /**
     * The first version reset the JVM's global peak counter at each job's start: a job that started while
     * another ran wiped the other's peak. A pool job's threads during a long virtual job must show in the
     * long job's peak, whatever starts after.
     */
    @Test
    void eachJobGetsThePeakOfItsOwnLifetime() throws Exception {
        open(new CrawlerOptions(64, 10_000, true));
        try (TestSite slow = new TestSite().tree(15, 2_000); TestSite wide = new TestSite().tree(255, 300);
                TestSite fast = new TestSite().tree(31, 20)) {
            int before = RuntimeSampler.livePlatformThreads();
            CrawlJob longJob = crawler.start(CrawlConfig.builder().seed(slow.url("/p/0")).maxDepth(10).build());
            // 128 leaves at once, 64 permits: the pool of 64 is busy to the last thread for a while.
            JobSummary pool = crawler.start(CrawlConfig.builder().seed(wide.url("/p/0")).maxDepth(10)
                    .perHostConcurrency(64).mode(ExecutionMode.POOL).poolSize(64).build()).awaitSummary();
            assertThat(pool.peakPlatformThreads()).isGreaterThanOrEqualTo(before + 64);
            // The pool's threads are gone: a job starting now sees far fewer live threads than the peak.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> RuntimeSampler.livePlatformThreads() < pool.peakPlatformThreads() - 48);
            crawler.start(CrawlConfig.builder().seed(fast.url("/p/0")).maxDepth(1).build()).awaitSummary();
            assertThat(longJob.awaitSummary().peakPlatformThreads()).isGreaterThanOrEqualTo(before + 64);
        }
    }

    /** The first version resumed through the API's request type and lost settings it did not have. */
    @Test
    void aResumedJobRunsWithEveryOneOfItsSettings() throws Exception {
        open(CrawlerOptions.DEFAULTS);
        try (TestSite site = new TestSite().tree(255, 40)) {
            CrawlConfig config = CrawlConfig.builder().seed(site.url("/p/0")).maxDepth(10).perHostConcurrency(2)
                    .userAgent("ResumeBot/1.0").header("X-Job", "mine").maxBodyBytes(8_192).hostFailureLimit(50).build();
            CrawlJob first = crawler.start(config);
            await().atMost(Duration.ofSeconds(20)).until(() -> first.progress().pages() >= 20);
            crawler.suspend(Duration.ofSeconds(10));
            int before = site.counter.total.get();
            try (Crawler restarted = new Crawler(store)) {
                CrawlJob resumed = restarted.resume(first.id());
                assertThat(resumed.config()).isEqualTo(config);
                assertThat(resumed.awaitSummary().pages()).isEqualTo(255);
            }
            assertThat(site.counter.total.get()).isGreaterThan(before);
            assertThat(site.counter.headerValues("User-Agent")).containsExactly("ResumeBot/1.0");
            assertThat(site.counter.headerValues("X-Job")).containsExactly("mine");
        }
    }
}
