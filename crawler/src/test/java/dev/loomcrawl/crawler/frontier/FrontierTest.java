package dev.loomcrawl.crawler.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import crawlercommons.robots.BaseRobotRules;
import dev.loomcrawl.crawler.fetch.FetchLimit;
import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.RetryPolicy;
import dev.loomcrawl.crawler.politeness.HostGates;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.PageRecord;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The in-memory frontier driven lease by lease, as tasks would, with its store and the process's gates. */
class FrontierTest {
    private static final AtomicLong DB = new AtomicLong();
    private PageStore store;
    private HostGates gates;
    private FetchLimit limit;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:frontier" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        gates = new HostGates(8, false);
        limit = new FetchLimit(1, 10_000, false, () -> false);
    }

    @AfterEach
    void close() {
        limit.close();
        store.close();
    }

    private Frontier frontier(CrawlConfigBuilder config) {
        return MemoryBackend.frontier(1, config.respectRobots(false).build(), gates, store, null);
    }

    private static CrawlConfigBuilder config() {
        return CrawlConfig.builder().seed("http://a.test/s").maxDepth(10);
    }

    private Lease next(Frontier f) throws InterruptedException {
        return f.next(limit.acquire());
    }

    private static PageRecord page(Lease lease) {
        return new PageRecord(1, lease.url().url(), lease.depth(), 200, "text/html", null, 0, 1, lease.attempt(), null,
                null, Instant.now(), "test", lease.referrer(), List.of(), Map.of(), null, null, 1, null, null, null, null, null, false);
    }

    private static List<Lease.Found> links(String... urls) {
        List<Lease.Found> found = new ArrayList<>();
        for (String u : urls) {
            found.add(new Lease.Found.Link(u, CrawlUrl.of(u), false));
        }
        return found;
    }

    private void complete(Lease lease, String... urls) throws InterruptedException {
        lease.complete(RetryPolicy.HostSignal.OK, page(lease), links(urls));
    }

    private int storedDepth(String url) throws InterruptedException {
        store.flush();
        return store.pages(1, 0, 1_000, null).stream().filter(p -> p.url().equals(url)).findFirst().orElseThrow().depth();
    }

    /** The defect of the first version: a page was stored at the depth it was handed out with. */
    @Test
    void aPageIsStoredAtItsDepthWhenItEndsNotWhenItWasHandedOut() throws Exception {
        Frontier f = frontier(config().seed("http://a.test/t"));
        f.seed(config().seed("http://a.test/t").build().scope().seeds());
        Lease s = next(f);
        Lease t = next(f);
        assertThat(List.of(s.url().url(), t.url().url())).containsExactly("http://a.test/s", "http://a.test/t");
        complete(s, "http://a.test/a");
        Lease a = next(f);
        complete(a, "http://a.test/b");
        Lease b = next(f);
        complete(b, "http://a.test/p");
        Lease p = next(f);
        assertThat(p.depth()).isEqualTo(3);
        complete(t, "http://a.test/p"); // a shorter path to p while p is out
        complete(p);
        assertThat(storedDepth("http://a.test/p")).isEqualTo(1);
    }

    /** A redirect's target ends a request already made: it goes before the host's other URLs, at the same depth. */
    @Test
    void aRedirectsTargetIsNextInItsHostsLine() throws Exception {
        Frontier f = frontier(config());
        f.seed(config().build().scope().seeds());
        complete(next(f), "http://a.test/1", "http://a.test/2", "http://a.test/3");
        Lease one = next(f);
        assertThat(one.url().url()).isEqualTo("http://a.test/1");
        one.complete(RetryPolicy.HostSignal.OK, page(one),
                List.of(new Lease.Found.Link("http://a.test/r", CrawlUrl.of("http://a.test/r"), true)));
        Lease target = next(f);
        assertThat(target.url().url()).isEqualTo("http://a.test/r");
        assertThat(target.depth()).isEqualTo(1);
        assertThat(target.redirects()).isEqualTo(1);
        complete(target);
        assertThat(next(f).url().url()).isEqualTo("http://a.test/2");
    }

    @Test
    void aShorterPathToAStoredPageLowersItAndItsLinksInTheStore() throws Exception {
        Frontier f = frontier(config().seed("http://a.test/t"));
        f.seed(config().seed("http://a.test/t").build().scope().seeds());
        Lease s = next(f);
        Lease t = next(f);
        complete(s, "http://a.test/a");
        complete(next(f), "http://a.test/p");   // a -> p at 2
        complete(next(f), "http://a.test/q");   // p -> q at 3
        Lease q = next(f);
        complete(q);
        assertThat(storedDepth("http://a.test/q")).isEqualTo(3);
        complete(t, "http://a.test/p");         // t -> p: p at 1, so q at 2
        assertThat(storedDepth("http://a.test/p")).isEqualTo(1);
        assertThat(storedDepth("http://a.test/q")).isEqualTo(2);
    }

    @Test
    void linksPastTheDepthLimitComeInWhenAShorterPathIsFound() throws Exception {
        Frontier f = frontier(config().seed("http://a.test/t").maxDepth(2));
        f.seed(config().seed("http://a.test/t").build().scope().seeds());
        Lease s = next(f);
        Lease t = next(f);
        complete(s, "http://a.test/a");
        complete(next(f), "http://a.test/p");          // p at 2, the limit
        complete(next(f), "http://a.test/beyond");     // beyond at 3: not admitted
        assertThat(f.queued()).isZero();
        complete(t, "http://a.test/p");                // p at 1: beyond at 2, admitted now
        Lease beyond = next(f);
        assertThat(beyond.url().url()).isEqualTo("http://a.test/beyond");
        assertThat(beyond.depth()).isEqualTo(2);
    }

    @Test
    void aRetryBacksOffItsUrlNotItsHost() throws Exception {
        Frontier f = frontier(config());
        f.seed(List.of(CrawlUrl.of("http://a.test/1"), CrawlUrl.of("http://a.test/2")));
        Lease first = next(f);
        first.retry(new RetryPolicy.HostSignal(FailureKind.HTTP_STATUS, Duration.ZERO), Duration.ofMillis(400));
        long start = System.nanoTime();
        Lease second = next(f);
        assertThat(second.url().url()).isEqualTo("http://a.test/2"); // at once: the host is not resting
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(300));
        complete(second);
        Lease again = next(f);
        assertThat(again.url().url()).isEqualTo("http://a.test/1");
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(350));
    }

    @Test
    void aRetryAfterRestsTheHostForEveryJobOfTheProcess() throws Exception {
        Frontier one = frontier(config());
        Frontier two = MemoryBackend.frontier(2, config().respectRobots(false).build(), gates, store, null);
        one.seed(List.of(CrawlUrl.of("http://a.test/1")));
        two.seed(List.of(CrawlUrl.of("http://a.test/2")));
        Lease limited = next(one);
        long start = System.nanoTime();
        limited.retry(new RetryPolicy.HostSignal(FailureKind.HTTP_STATUS, Duration.ofMillis(500)), Duration.ofMillis(500));
        Lease other = two.next(limit.acquire());
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(450));
        assertThat(other.url().url()).isEqualTo("http://a.test/2");
    }

    @ParameterizedTest(name = "limit {0}: {1} requests, then recorded as {2}")
    @CsvSource({"3, 3, connect", "1, 1, connect"})
    void aRunOfFailuresGivesTheHostUp(int failureLimit, int requests, String kind) throws Exception {
        Frontier f = frontier(config().hostFailureLimit(failureLimit).perHostConcurrency(1));
        List<CrawlUrl> urls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            urls.add(CrawlUrl.of("http://a.test/" + i));
        }
        f.seed(urls);
        int made = 0;
        Lease lease;
        while ((lease = next(f)) != null) {
            if (lease.skip() != null) {
                assertThat(lease.skip().kind().label()).isEqualTo(kind);
                assertThat(lease.skip().detail()).contains("given up after " + failureLimit);
                lease.complete(RetryPolicy.HostSignal.OK, page(lease), List.of());
                continue;
            }
            made++;
            lease.complete(new RetryPolicy.HostSignal(FailureKind.CONNECT, Duration.ZERO), page(lease), List.of());
        }
        assertThat(made).isEqualTo(requests);
        assertThat(f.givenUpHosts()).containsKey("a.test:80");
    }

    /**
     * The requests on their way when a server asks for a rest come back 429 together: one failure of the run,
     * so a host that limits us for a while is given up after a run of rests, not within its first.
     */
    @Test
    void answersInsideARestCountOnceTowardsGivingTheHostUp() throws Exception {
        Frontier f = frontier(config().hostFailureLimit(3).perHostConcurrency(4).maxRetries(10));
        List<CrawlUrl> urls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            urls.add(CrawlUrl.of("http://a.test/" + i));
        }
        f.seed(urls);
        // Long enough that the four answers of a rest come back inside it on any machine
        RetryPolicy.HostSignal tooMany = new RetryPolicy.HostSignal(FailureKind.HTTP_STATUS, Duration.ofMillis(500));
        for (int rest = 1; rest <= 3; rest++) {
            List<Lease> inFlight = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                inFlight.add(next(f));
            }
            assertThat(inFlight).as("the requests of rest %d", rest).allSatisfy(lease -> assertThat(lease.skip()).isNull());
            for (Lease lease : inFlight) {
                lease.retry(tooMany, Duration.ZERO);
            }
        }
        Lease after = next(f);
        assertThat(after.skip()).isNotNull();
        assertThat(after.skip().detail()).isEqualTo("host given up after 3 URLs failed in a row");
        after.complete(RetryPolicy.HostSignal.OK, page(after), List.of());
    }

    /**
     * Requests that left before a failure of their host came back and fail too repeat the server's trouble: not
     * charged to their URLs' retries, nor counted again in the host's run.
     */
    @Test
    void failuresThatRepeatTheHostsAreNotChargedToTheirUrls() throws Exception {
        Frontier f = frontier(config().hostFailureLimit(2).perHostConcurrency(4));
        List<CrawlUrl> urls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            urls.add(CrawlUrl.of("http://a.test/" + i));
        }
        f.seed(urls);
        RetryPolicy.HostSignal down = new RetryPolicy.HostSignal(FailureKind.HTTP_STATUS, Duration.ZERO);
        List<Lease> inFlight = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            inFlight.add(next(f));
        }
        List<Integer> charged = new ArrayList<>();
        for (Lease lease : inFlight) {
            charged.add(lease.charged(down));
            lease.retry(down, Duration.ZERO);
        }
        assertThat(charged).containsExactly(1, 0, 0, 0);
        Lease again = next(f); // one failure counted of 2: the host is not given up
        assertThat(again.skip()).isNull();
        assertThat(again.attempt()).isEqualTo(2);
        assertThat(again.charged(down)).isEqualTo(again.url().url().endsWith("/0") ? 2 : 1);
        again.retry(down, Duration.ZERO);
        assertThat(next(f).skip()).isNotNull(); // a request that left after the first failure: counted, the second
    }

    /**
     * A resting host is asked for its next URL many times before it may send one: its retries still leave in the
     * order they fell due, so the first request after each rest of an outage is another URL's, and no URL is
     * charged every round (a server down for 45 s lost the one that failed last, sent first after each rest).
     */
    @Test
    void retriesLeaveInTheOrderTheyFellDueHoweverOftenTheHostIsAsked() {
        HostQueue host = new HostQueue(CrawlUrl.of("http://a.test/"), 8, null);
        long now = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            Node node = new Node(CrawlUrl.of("http://a.test/" + i), host, 1, 0, null);
            node.notBefore = now - (3 - i) * 1_000_000L; // /0 due longest
            host.requeue(node, now - 10_000_000L);
        }
        for (int asked = 0; asked < 3; asked++) {
            assertThat(host.due(now).url.url()).isEqualTo("http://a.test/0"); // while the host rests
        }
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Node node = host.due(now);
            host.lease(node, now, 0);
            sent.add(node.url.url());
        }
        assertThat(sent).containsExactly("http://a.test/0", "http://a.test/1", "http://a.test/2");
    }

    @Test
    void untilRobotsTxtIsKnownAHostHasOneLeaseOut() throws Exception {
        Frontier f = MemoryBackend.frontier(1, config().build(), gates, store, null);
        f.seed(List.of(CrawlUrl.of("http://a.test/1"), CrawlUrl.of("http://a.test/private/2"),
                CrawlUrl.of("http://a.test/3")));
        Lease first = next(f);
        assertThat(first.robotsUnknown()).isTrue();
        assertThat(f.queued()).isEqualTo(2);
        first.robots(Robots.parse(CrawlUrl.of("http://a.test/robots.txt"), "User-agent: *\nDisallow: /private/\n"
                .getBytes(), "text/plain", "loomcrawl"));
        Lease disallowed = next(f);
        assertThat(disallowed.skip().kind()).isEqualTo(FailureKind.ROBOTS);
        Lease third = next(f); // the host opened to its full limit
        assertThat(third.robotsUnknown()).isFalse();
        assertThat(gates.inUse("a.test:80")).isEqualTo(2);
    }

    /**
     * The request that fetched robots.txt goes on to its own page at once, leased before the delay was known: the
     * next request of the host waits the {@code Crawl-delay} from there (it left in the same second).
     */
    @Test
    void aCrawlDelayCountsFromTheRobotsTxtThatSaysIt() throws Exception {
        Frontier f = MemoryBackend.frontier(1, config().build(), gates, store, null);
        f.seed(List.of(CrawlUrl.of("http://a.test/1"), CrawlUrl.of("http://a.test/2")));
        Lease first = next(f);
        assertThat(first.robotsUnknown()).isTrue();
        first.robots(Robots.parse(CrawlUrl.of("http://a.test/robots.txt"), "User-agent: *\nCrawl-delay: 1\n"
                .getBytes(), "text/plain", "loomcrawl"));
        long known = System.nanoTime();
        next(f);
        assertThat(Duration.ofNanos(System.nanoTime() - known)).isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @Test
    void anUnreachableRobotsTxtRestsTheHostThenGivesItUp() throws Exception {
        Frontier f = MemoryBackend.frontier(1, config().robotsRetryFor(Duration.ofMillis(1_200)).build(), gates, store, null);
        f.seed(List.of(CrawlUrl.of("http://a.test/1")));
        // no answer (not a refusal, which gives up after three tries whatever the time)
        FetchResult.Failed down = FetchResult.Failed.of(FailureKind.TIMEOUT, "HttpTimeoutException", 1_000);
        Lease first = next(f);
        long start = System.nanoTime();
        first.robotsUnreachable(down);
        Lease second = next(f);
        assertThat(second.robotsUnknown()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(950)); // 1 s rest
        second.robotsUnreachable(down);
        Lease third = next(f);
        third.robotsUnreachable(down); // 1.2 s of trying is over
        Lease last = next(f);
        assertThat(last.skip().kind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(last.skip().detail()).contains("robots.txt unreachable");
    }

    @Test
    void aPermanentRefusalGivesTheHostUpAtOnce() throws Exception {
        Frontier f = MemoryBackend.frontier(1, config().build(), gates, store, null);
        f.seed(List.of(CrawlUrl.of("http://a.test/1")));
        next(f).robotsUnreachable(new FetchResult.Failed(FailureKind.CONNECT, "refused: private address", 1, true));
        Lease last = next(f);
        assertThat(last.skip().detail()).isEqualTo("refused: private address");
    }

    @Test
    void aLeaseClosedWithoutAnOutcomeFreesItsPermitAndGoesBack() throws Exception {
        Frontier f = frontier(config().perHostConcurrency(1));
        f.seed(List.of(CrawlUrl.of("http://a.test/1")));
        Lease lease = next(f);
        assertThat(gates.inUse("a.test:80")).isEqualTo(1);
        assertThat(limit.inFlight()).isEqualTo(1);
        lease.close(); // as if the executor had refused its task
        assertThat(gates.inUse("a.test:80")).isZero();
        assertThat(limit.inFlight()).isZero();
        Lease again = next(f);
        assertThat(again.url().url()).isEqualTo("http://a.test/1");
        assertThat(again.attempt()).isEqualTo(1); // no request was made
        complete(again);
        lease.close(); // closing an ended lease does nothing
        assertThat(next(f)).isNull(); // nothing queued, nothing in flight: over
    }

    @Test
    void aCancelledFrontierHandsOutNothingAndTakesNothingBack() throws Exception {
        Frontier f = frontier(config());
        f.seed(List.of(CrawlUrl.of("http://a.test/1"), CrawlUrl.of("http://a.test/2")));
        Lease lease = next(f);
        f.cancel();
        lease.close();
        assertThat(f.queued()).isZero();
        assertThat(f.inFlight()).isZero();
        assertThat(next(f)).isNull();
    }

    @Test
    void thePageLimitCountsAdmittedUrls() throws Exception {
        Frontier f = frontier(config().maxPages(3));
        f.seed(config().build().scope().seeds());
        assertThat(f.full()).isFalse();
        complete(next(f), "http://a.test/1", "http://a.test/2", "http://a.test/3", "http://a.test/4");
        assertThat(f.full()).as("a page's new links need not be offered now").isTrue();
        int leased = 0;
        Lease lease;
        while ((lease = next(f)) != null) {
            complete(lease);
            leased++;
        }
        assertThat(leased).isEqualTo(2); // the seed and two links make three
    }

    /**
     * A robots.txt slow to answer (500 KiB of rules its index cannot narrow take milliseconds a URL) is asked about
     * a page's links outside the frontier's lock: while one host's page waits for its links' verdicts, another
     * host's URLs are leased and stored. And a link its rules allowed on admission is not asked again when leased.
     */
    @Test
    void aHostsRobotsTxtIsAskedOutsideTheFrontiersLock() throws Exception {
        Frontier f = MemoryBackend.frontier(1, config().build(), gates, store, null);
        f.seed(List.of(CrawlUrl.of("http://a.test/1"), CrawlUrl.of("http://b.test/1")));
        Lease a = next(f);
        Lease b = next(f);
        if (!a.url().host().equals("a.test")) {
            Lease swap = a;
            a = b;
            b = swap;
        }
        SlowRules slow = new SlowRules();
        a.robots(new Robots.Rules(slow, 0, "disallowed by robots.txt", null));
        b.robots(Robots.ALLOW_ALL);
        Lease page = a;
        Thread asking = Thread.ofVirtual().start(() -> {
            try {
                complete(page, "http://a.test/slow/1", "http://a.test/private/slow");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(slow.asking.await(5, TimeUnit.SECONDS)).isTrue();
        Lease other = b;
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            complete(other, "http://b.test/2");
            Lease next = next(f);
            assertThat(next.url().url()).isEqualTo("http://b.test/2");
            complete(next);
        });
        slow.answer.countDown();
        asking.join();
        int asked = slow.asked.get();
        Lease allowed = next(f);
        assertThat(allowed.url().url()).isEqualTo("http://a.test/slow/1");
        assertThat(allowed.skip()).isNull();
        assertThat(slow.asked.get()).isEqualTo(asked);
        store.flush();
        assertThat(store.pages(1, 0, 100, null)).filteredOn(p -> p.url().equals("http://a.test/private/slow"))
                .singleElement().satisfies(p -> assertThat(p.failure()).isEqualTo(FailureKind.ROBOTS.label()));
    }

    /** Rules that disallow paths with "private", and take their time over paths with "slow" (until answered). */
    private static final class SlowRules extends BaseRobotRules {
        final CountDownLatch asking = new CountDownLatch(1);
        final CountDownLatch answer = new CountDownLatch(1);
        final AtomicInteger asked = new AtomicInteger();

        @Override
        public boolean isAllowed(URL url) {
            asked.incrementAndGet();
            if (url.getPath().contains("slow")) {
                asking.countDown();
                try {
                    answer.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return !url.getPath().contains("private");
        }

        @Override
        public boolean isAllowed(String url) {
            throw new AssertionError("asked by URL object");
        }

        @Override
        public boolean isAllowAll() {
            return false;
        }

        @Override
        public boolean isAllowNone() {
            return false;
        }
    }
}
