package dev.loomcrawl.bench;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.HostSetting;
import dev.loomcrawl.crawler.values.KeyAudit;
import dev.loomcrawl.crawler.values.PolitenessKey;
import dev.loomcrawl.mocksites.CountingServer;
import dev.loomcrawl.mocksites.TestDomainResolverProvider;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;

/**
 * {@code bench --scenario=politeness}: politeness as servers count it, in this process, against servers on their
 * own loopback addresses (many names each, through the farm's resolver). Four figures, one crawl each or more:
 * <ul>
 *   <li><b>adaptive</b>: a server whose latency doubles past 3 requests in flight, crawled with adaptive
 *       politeness and {@code --per-host=8}, against the same crawl told the right limit by hand (3, fixed): the
 *       server's p95 latency over its base, and the wall time over the hand-tuned crawl's;
 *   <li><b>noisy</b>: a server whose answers vary by themselves (lognormal, median the base, spread 0.5: a tenth
 *       over 1.9× the median), whatever the load, crawled with adaptive politeness and at 8 fixed: the wall time
 *       of the one over the other (its own noise must not hold the key below its limit);
 *   <li><b>by address</b>: 50 names on 5 addresses, {@code ip} key, limit 4: the most in flight any server saw,
 *       and whether the job's audit equals each server's count;
 *   <li><b>pause</b>: a pause set on one address while the crawl runs: how long after the answer the last request
 *       reached it.
 * </ul>
 */
final class PolitenessBench {
    private static final AtomicLong DB = new AtomicLong();
    /** The noisy server's spread: the standard deviation of its answers' log latency. */
    private static final double NOISE = 0.5;

    /** Everything measured; times in ms. */
    record Result(int baseMillis, int pages, double adaptiveWallSeconds, double handWallSeconds, double wallRatio,
            long adaptiveP50, long adaptiveP95, double p95OverBase, double adaptiveSlowShare, long fixedEightP95,
            double noisyAdaptiveSeconds, double noisyFixedSeconds, int addresses, int names, int limit,
            int mostInFlightAtAnAddress, boolean auditEqualsServers, long pauseLastRequestAfterMillis) {}

    private PolitenessBench() {}

    static Result run(int baseMillis, int pages, PrintWriter err) throws Exception {
        err.printf("bench: a server of %d ms that doubles past 3 in flight, %d pages: adaptive, then the right limit by"
                + " hand, then 8 fixed%n", baseMillis, pages);
        Crawl adaptive = slowing(baseMillis, pages, new CrawlerOptions(8, 10_000, true), 8);
        Crawl hand = slowing(baseMillis, pages, new CrawlerOptions(3, 10_000, true, PolitenessKey.HOST, false), 3);
        Crawl fixed = slowing(baseMillis, Math.min(pages, 255), new CrawlerOptions(8, 10_000, true, PolitenessKey.HOST,
                false), 8);
        err.printf("bench: a server of %d ms whose answers vary by themselves, %d pages: adaptive, then 8 fixed%n",
                baseMillis, pages);
        IntUnaryOperator noisy = inFlight ->
                (int) (baseMillis * Math.exp(NOISE * ThreadLocalRandom.current().nextGaussian()));
        Crawl noisyAdaptive = crawl(noisy, baseMillis, pages, new CrawlerOptions(8, 10_000, true), 8);
        Crawl noisyFixed = crawl(noisy, baseMillis, pages, new CrawlerOptions(8, 10_000, true, PolitenessKey.HOST,
                false), 8);
        err.println("bench: 50 names on 5 addresses by address, limit 4, with a pause set on one address mid-crawl");
        ByAddress byAddress = byAddress();
        return new Result(baseMillis, pages, adaptive.seconds, hand.seconds, round(adaptive.seconds / hand.seconds),
                adaptive.p50, adaptive.p95, round((double) adaptive.p95 / baseMillis), adaptive.slowShare, fixed.p95,
                noisyAdaptive.seconds, noisyFixed.seconds, 5, 50, 4, byAddress.mostInFlight, byAddress.auditEquals,
                byAddress.pauseLastAfterMillis);
    }

    /** @param slowShare the share of answers the server gave at its doubled latency (p95 is doubled past 5%) */
    private record Crawl(double seconds, long p50, long p95, double slowShare) {}

    private static Crawl slowing(int baseMillis, int pages, CrawlerOptions options, int perHost) throws Exception {
        return crawl(inFlight -> inFlight > 3 ? 2 * baseMillis : baseMillis, baseMillis, pages, options, perHost);
    }

    /** @param baseMillis the server's usual latency: an answer over 1.5× it counts as doubled */
    private static Crawl crawl(IntUnaryOperator latencyMillis, int baseMillis, int pages, CrawlerOptions options,
            int perHost) throws Exception {
        try (CountingServer server = new CountingServer("127.0.0.30", pages, latencyMillis);
             Database database = Database.open("jdbc:h2:mem:politeness-bench" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
             Crawler crawler = new Crawler(database, options)) {
            long start = System.nanoTime();
            crawler.start(CrawlConfig.builder().seed("http://127.0.0.30:" + server.port() + "/p/0").maxDepth(20)
                    .perHostConcurrency(perHost).build()).awaitSummary();
            return new Crawl(round((System.nanoTime() - start) / 1e9), server.quantileMillis(0.5),
                    server.quantileMillis(0.95), server.shareOver(baseMillis * 3L / 2));
        }
    }

    private record ByAddress(int mostInFlight, boolean auditEquals, long pauseLastAfterMillis) {}

    private static ByAddress byAddress() throws Exception {
        List<CountingServer> servers = new ArrayList<>();
        try (Database database = Database.open("jdbc:h2:mem:politeness-bench" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
             Crawler crawler = new Crawler(database, new CrawlerOptions(4, 10_000, true))) {
            CrawlConfigBuilder config = CrawlConfig.builder().maxDepth(20).perHostConcurrency(4)
                    .politenessKey(PolitenessKey.IP);
            for (int a = 31; a < 36; a++) {
                CountingServer server = new CountingServer("127.0.0." + a, 63, inFlight -> 20);
                servers.add(server);
                for (int n = 0; n < 10; n++) {
                    config.seed("http://" + TestDomainResolverProvider.onAddress("h" + n, a) + ":" + server.port() + "/p/0");
                }
            }
            CrawlJob job = crawler.start(config.build());
            CountingServer paused = servers.getFirst();
            while (paused.total.get() < 50 && !job.await(Duration.ofMillis(20))) {
                // bounded: the job ends
            }
            crawler.hosts().set("127.0.0.31", new HostSetting(null, null, Instant.now().plus(Duration.ofMinutes(1))));
            long answered = System.nanoTime();
            job.await(Duration.ofSeconds(3)); // three seconds watched, the other addresses crawled meanwhile
            long lastAfter = (paused.lastArrivalNanos.get() - answered) / 1_000_000;
            crawler.hosts().set("127.0.0.31", new HostSetting(null, null, null));
            job.awaitSummary();
            boolean equal = true;
            List<KeyAudit> audit = crawler.hosts().audit(job.id()).orElseThrow();
            for (int i = 0; i < servers.size(); i++) {
                String key = "127.0.0." + (31 + i);
                long counted = servers.get(i).total.get();
                equal &= audit.stream().anyMatch(k -> k.key().equals(key) && k.requests() == counted);
            }
            return new ByAddress(servers.stream().mapToInt(s -> s.maxInFlight.get()).max().orElse(0), equal,
                    Math.max(0, lastAfter));
        } finally {
            servers.forEach(CountingServer::close);
        }
    }

    static void print(Result r, PrintWriter out) {
        out.printf("%n| figure | value | target |%n|---|---|---|%n");
        out.printf("| adaptive: server p50 / p95 (base %d ms) | %d / %d ms (p95 %.2f× base; %.1f%% of answers doubled,"
                + " and past 5%% the p95 is) | p95 < 1.5× base |%n", r.baseMillis(), r.adaptiveP50(), r.adaptiveP95(),
                r.p95OverBase(), 100 * r.adaptiveSlowShare());
        out.printf("| adaptive ÷ right limit by hand (3): wall, %d pages | %.1f s ÷ %.1f s = %.2f× | ≤ 1.3× |%n",
                r.pages(), r.adaptiveWallSeconds(), r.handWallSeconds(), r.wallRatio());
        out.printf("| 8 fixed, not adaptive: server p95 | %d ms | (the control) |%n", r.fixedEightP95());
        out.printf("| noisy (spread %.1f, not slowed by load): adaptive ÷ 8 fixed, wall | %.1f s ÷ %.1f s = %.2f×"
                + " | ≤ 1.1× |%n",
                NOISE, r.noisyAdaptiveSeconds(), r.noisyFixedSeconds(),
                round(r.noisyAdaptiveSeconds() / r.noisyFixedSeconds()));
        out.printf("| by address: most in flight at one address (%d names on %d addresses, limit %d) | %d | ≤ %d |%n",
                r.names(), r.addresses(), r.limit(), r.mostInFlightAtAnAddress(), r.limit());
        out.printf("| the audit's requests equal each server's count | %s | yes |%n", r.auditEqualsServers() ? "yes" : "NO");
        out.printf("| pause: last request after the answer | %d ms | < 1,000 ms |%n", r.pauseLastRequestAfterMillis());
        out.flush();
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
