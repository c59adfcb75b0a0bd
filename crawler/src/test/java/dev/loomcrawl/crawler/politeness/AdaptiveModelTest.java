package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The rule against a model of one host's server, as {@code bench --scenario=politeness} runs real ones, without
 * their timing noise: answers due in order of their latency, a request sent whenever the key may have one more in
 * flight, {@code --per-host=8}.
 */
class AdaptiveModelTest {
    private static final double BASE = 0.3;

    /** What a crawl of one host cost: answers the server doubled, and the wall time in seconds. */
    private record Run(int doubled, double seconds) {}

    /**
     * A crawl of {@code pages} from one seed. Each answer takes {@link #BASE} (its median: times {@code e^(sigma Z)},
     * the lognormal spread of a real server's answers), twice that past {@code capacity} in flight (0: none); answers
     * due inside {@code [stallAt, stallAt + 300 ms)} come 300 ms later (a stall of ours, or of a server shared by
     * many hosts; -1: none).
     */
    private static Run crawl(boolean adaptive, int pages, int capacity, double sigma, long seed, double stallAt) {
        record Answer(double at, double latency, boolean doubled) {}
        Random random = new Random(seed);
        Adaptive a = new Adaptive(8);
        PriorityQueue<Answer> due = new PriorityQueue<>(Comparator.comparingDouble(Answer::at));
        double first = BASE * Math.exp(sigma * random.nextGaussian());
        due.add(new Answer(first, first, false)); // the seed, alone
        int inFlight = 1;
        int sent = 1;
        int doubled = 0;
        double now = 0;
        while (!due.isEmpty()) {
            Answer answer = due.poll();
            now = answer.at();
            int allowed = adaptive ? a.allowed(8) : 8;
            boolean full = inFlight >= allowed && sent > 1;
            inFlight--;
            doubled += answer.doubled() ? 1 : 0;
            a.answered(new Reply((long) (answer.latency() * 1e9), false, false, 0), 8, full);
            allowed = adaptive ? a.allowed(8) : 8;
            while (inFlight < allowed && sent < pages) {
                inFlight++;
                sent++;
                boolean over = capacity > 0 && inFlight > capacity;
                double latency = (over ? 2 : 1) * BASE * Math.exp(sigma * random.nextGaussian());
                latency += stallAt >= 0 && now + latency >= stallAt && now + latency < stallAt + 0.3 ? 0.3 : 0;
                due.add(new Answer(now + latency, latency, over));
            }
        }
        return new Run(doubled, now);
    }

    /** A server that slows past 3, 4 or 5 in flight is found and kept there: under 5% of its answers doubled. */
    @Test
    void aSlowingServerIsFoundAndKept() {
        for (int capacity = 3; capacity <= 5; capacity++) {
            Run run = crawl(true, 511, capacity, 0, 0, -1);
            assertThat(run.doubled() / 511.0).as("doubled past %d", capacity).isLessThan(0.05);
            assertThat(run.seconds()).as("wall past %d", capacity).isLessThan(1.3 * 511 / capacity * BASE);
        }
    }

    /**
     * The bench's own site: a binary tree ({@code /p/i} links {@code 2i+1} and {@code 2i+2}), so a crawl's load
     * grows as pages are found, and a burst of requests reaches the server in any order within 3 ms (new
     * connections), so that a request's load is the server's only give or take a few.
     */
    private static Run treeCrawl(boolean adaptive, int pages, int capacity, double sigma, long seed) {
        return treeCrawl(adaptive, pages, capacity, sigma, seed, Lateness.NONE);
    }

    /**
     * Our own lateness, added to every answer's latency as we measure it (a busy CPU reading answers late): drawn
     * afresh each answer, uniformly up to twice {@code mean}, and up to twice {@code warmMean} until {@code warmUntil}
     * seconds (a cold JVM's start, when its JIT and class loading share the cores with the crawl).
     */
    private record Lateness(double mean, double warmMean, double warmUntil) {
        static final Lateness NONE = new Lateness(0, 0, 0);

        double draw(double now, Random random) {
            return 2 * (now < warmUntil ? warmMean : mean) * random.nextDouble();
        }
    }

    private static Run treeCrawl(boolean adaptive, int pages, int capacity, double sigma, long seed, Lateness own) {
        final class Request {
            int page;
            int load;
            double sent;
            double at; // its arrival at the server, then its answer
            boolean arrived;
            boolean doubled;
        }
        Random random = new Random(seed);
        Adaptive a = new Adaptive(8);
        PriorityQueue<Request> events = new PriorityQueue<>(Comparator.comparingDouble((Request r) -> r.at));
        ArrayDeque<Integer> found = new ArrayDeque<>(List.of(0));
        int awaiting = 0;
        int atServer = 0;
        int doubled = 0;
        double now = 0;
        while (true) {
            while (awaiting < (adaptive ? a.allowed(8) : 8) && !found.isEmpty()) {
                Request r = new Request();
                r.page = found.poll();
                r.load = ++awaiting;
                r.sent = now;
                r.at = now + 0.003 * random.nextDouble();
                events.add(r);
            }
            Request r = events.poll();
            if (r == null) {
                return new Run(doubled, now);
            }
            now = r.at;
            if (!r.arrived) {
                r.arrived = true;
                r.doubled = ++atServer > capacity && capacity > 0;
                r.at = now + (r.doubled ? 2 : 1) * BASE * Math.exp(sigma * random.nextGaussian())
                        + own.draw(now, random);
                events.add(r);
                continue;
            }
            atServer--;
            doubled += r.doubled ? 1 : 0;
            boolean full = awaiting-- >= (adaptive ? a.allowed(8) : 8);
            a.answered(new Reply((long) ((now - r.sent) * 1e9), false, false, r.load), 8, full);
            for (int child = 2 * r.page + 1; child <= 2 * r.page + 2 && child < pages; child++) {
                found.add(child);
            }
        }
    }

    /**
     * The same servers crawled as the bench crawls them, 20 crawls each: at most one stays overloaded (a fifth of its
     * answers doubled). A healthy answer at the whole limit, by arrival order alone, held slow start at 8 for the
     * whole crawl in up to 6 of 20; past 1, the seed's answer and one more were too few to tell a level of answers
     * twice as slow from them, in most crawls. About 1 crawl in 40 is still held at 5 past 4: a cut undone on a
     * block of answers still slowed by the level cut.
     */
    @Test
    void aSlowingServerIsFoundWhateverOrderItsRequestsArriveIn() {
        for (int capacity = 1; capacity <= 5; capacity++) {
            int overloaded = 0;
            for (int seed = 0; seed < 20; seed++) {
                overloaded += treeCrawl(true, 511, capacity, 0, seed).doubled() > 0.2 * 511 ? 1 : 0;
            }
            assertThat(overloaded).as("crawls overloaded, past %d", capacity).isLessThanOrEqualTo(1);
        }
    }

    /**
     * Our own lateness is not read as the server's, within bounds: lateness of up to a fifth of the answers' time (a
     * busy machine), or a cold start's lateness of 35 to 50 ms on average for its first second beside answers of 300
     * ms, keeps a server that slows past 3 to 5 in flight unharmed in every crawl, and past 1 or 2 (the rule's weak
     * spot even without it) overloaded in at most 2 crawls of 20. A failure is whole (nearly every answer doubled): the
     * start's few answers, late, become a yardstick too high and too spread to prove any level above it slower. Past
     * those bounds it fails more often (docs/politeness.md, "What it costs, and where it is weak").
     */
    @Test
    void ourOwnLatenessIsNotReadAsTheServers() {
        for (Lateness own : List.of(new Lateness(0.1 * BASE, 0.1 * BASE, 0), new Lateness(0.2 * BASE, 0.2 * BASE, 0),
                new Lateness(0.015, 0.035, 0.5), new Lateness(0.015, 0.05, 1))) {
            for (int capacity = 1; capacity <= 5; capacity++) {
                int overloaded = 0;
                for (int seed = 0; seed < 20; seed++) {
                    overloaded += treeCrawl(true, 1023, capacity, 0, seed, own).doubled() > 0.1 * 1023 ? 1 : 0;
                }
                assertThat(overloaded).as("crawls overloaded past %d, %s", capacity, own)
                        .isLessThanOrEqualTo(capacity <= 2 ? 2 : 0);
            }
        }
    }

    /**
     * A server whose answers vary by themselves (spread 0.5), crawled as the bench crawls it, 300 crawls: none takes
     * 2.5× a fixed limit's time. Cuts against slow start's few answers, the fast end of the server's, once took a
     * host down to 1 and held it there for the rest of the crawl (5.3× in the worst of 30); a cut to 1 is now judged
     * again against the answers at 1, which become the yardstick. So is a cut to 1 made on the recent latency alone
     * against a baseline drawn from a seed's answer far faster than the server's usual (35 ms of 300: 5.6× in the
     * worst of 300, the probe back from 1 waiting 300 answers).
     */
    @Test
    void aServerWhoseAnswersVaryByThemselvesIsNotCutDownToOne() {
        double worst = 0;
        for (int seed = 0; seed < 300; seed++) {
            worst = Math.max(worst, treeCrawl(true, 511, 0, 0.5, seed).seconds()
                    / treeCrawl(false, 511, 0, 0.5, seed).seconds());
        }
        assertThat(worst).isLessThan(2.5);
    }

    /** A stall that every host saw during slow start costs about one round, not the rest of the crawl at half. */
    @Test
    void aStallInSlowStartIsUndone() {
        double healthy = crawl(true, 511, 0, 0, 0, -1).seconds();
        assertThat(crawl(true, 511, 0, 0, 0, 0.6).seconds()).isLessThan(healthy + 0.7);
    }

    /**
     * A server whose answers vary by themselves, whatever the load (lognormal, as real pages' times are: a spread of
     * 0.4 puts a tenth of them over 1.7× the median, 0.7 over 2.5×), is not held below its limit by its own noise:
     * a host of 100 pages takes about as long as at 8 fixed, in 9 crawls of 10 (each drawn afresh).
     */
    @Test
    void aServerWhoseAnswersVaryByThemselvesIsNotHeldBelowItsLimit() {
        for (double sigma : new double[] {0.4, 0.7}) {
            double[] ratios = new double[30];
            for (int seed = 0; seed < ratios.length; seed++) {
                ratios[seed] = crawl(true, 100, 0, sigma, seed, -1).seconds()
                        / crawl(false, 100, 0, sigma, seed, -1).seconds();
            }
            Arrays.sort(ratios);
            assertThat(ratios[26]).as("90th percentile, spread %.1f", sigma).isLessThan(1.25);
            assertThat(ratios[29]).as("worst, spread %.1f", sigma).isLessThan(1.5);
        }
    }
}
