package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.fetch.Fetcher;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Each host's robots.txt for one-off fetches ({@code POST /fetch}), asked once per {@link #FRESH} however many
 * fetches of the host come at once: the first asks (under its own permit), the others wait for its answer.
 * Rules a server could not give (5xx, no answer) are kept only {@link #UNREACHABLE}, and mean a complete
 * disallow meanwhile, as RFC 9309 2.3.1.4 says.
 */
public final class RobotsMemo {
    /** How long rules stay in use: RFC 9309 2.4 allows up to 24 hours; a one-off fetch wants today's. */
    static final Duration FRESH = Duration.ofMinutes(10);
    static final Duration UNREACHABLE = Duration.ofSeconds(30);

    /**
     * What robots.txt says of one URL: it may be fetched (both null), it is disallowed ({@code refusal}), or
     * robots.txt could not be had ({@code unreachable}: the failure of its request; nothing may be fetched).
     */
    public record Verdict(@Nullable String refusal, FetchResult.@Nullable Failed unreachable) {
        public boolean allowed() {
            return refusal == null && unreachable == null;
        }
    }

    private record Entry(CompletableFuture<RobotsFetch.Answer> outcome, long until) {}

    /** How one robots.txt request goes out: under the host's permit, as every request. */
    @FunctionalInterface
    public interface Asker {
        RobotsFetch.Answer ask(CrawlUrl page) throws InterruptedException, Fetcher.NotSent;
    }

    private final ConcurrentHashMap<String, Entry> byHost = new ConcurrentHashMap<>();

    /** Whether robots.txt lets {@code url} be fetched, asking {@code asker} for the rules if none are fresh. */
    public Verdict check(CrawlUrl url, Asker asker) throws InterruptedException {
        long now = System.nanoTime();
        CompletableFuture<RobotsFetch.Answer> mine = new CompletableFuture<>();
        Entry entry = byHost.compute(url.hostKey(), (host, known) ->
                known != null && (known.until - now > 0 || !known.outcome.isDone()) ? known
                        : new Entry(mine, now + FRESH.toNanos()));
        if (entry.outcome == mine) {
            try {
                RobotsFetch.Answer outcome = asker.ask(url);
                if (outcome.rules() == null) {
                    byHost.put(url.hostKey(), new Entry(mine, System.nanoTime() + UNREACHABLE.toNanos()));
                }
                mine.complete(outcome);
            } catch (Fetcher.NotSent | RuntimeException | InterruptedException e) {
                byHost.remove(url.hostKey(), entry); // nothing learned: the next fetch asks again
                mine.completeExceptionally(e);
            }
        }
        RobotsFetch.Answer outcome;
        try {
            outcome = entry.outcome.get();
        } catch (ExecutionException e) {
            Throwable why = e.getCause() == null ? e : e.getCause();
            return new Verdict("robots.txt could not be asked: " + why.getMessage(), null);
        }
        if (outcome.rules() == null) {
            return new Verdict(null, outcome.failure());
        }
        return new Verdict(outcome.rules().allows(url) ? null : outcome.rules().reason(), null);
    }
}
