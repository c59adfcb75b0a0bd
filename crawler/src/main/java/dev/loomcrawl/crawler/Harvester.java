package dev.loomcrawl.crawler;

import dev.loomcrawl.crawler.fetch.FetchResult;
import dev.loomcrawl.crawler.frontier.Frontier;
import dev.loomcrawl.crawler.frontier.Lease;
import dev.loomcrawl.crawler.parse.Extraction;
import dev.loomcrawl.crawler.content.Fingerprints;
import dev.loomcrawl.crawler.parse.LinkHeader;
import dev.loomcrawl.crawler.parse.LinkScope;
import dev.loomcrawl.crawler.parse.PageParser;
import dev.loomcrawl.crawler.parse.RobotsDirectives;
import dev.loomcrawl.crawler.politeness.Robots;
import dev.loomcrawl.crawler.content.NearDuplicates;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.FetchedPage;
import dev.loomcrawl.crawler.values.PageHandler;
import dev.loomcrawl.crawler.values.PageRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * What one fetch yields: the record to store and the links to follow, each a URL as a browser resolves it
 * ({@link CrawlUrl#check(String, dev.loomcrawl.crawler.url.WebUrl)}).
 */
final class Harvester {
    /** A URL's record and the links to offer the frontier. */
    record Harvest(PageRecord page, List<Lease.Found> links) {}

    private final long jobId;
    private final CrawlConfig config;
    private final LinkScope scope;
    private final Frontier frontier;
    private final Extraction extraction;
    private final ContentRequest content;
    private final @Nullable PageHandler handler;
    private final ExecutorService parsers;
    /** The robots product token of the job's user agent, which a page's robots directives may name. */
    private final String agentToken;
    /** The job's pages by SimHash, when it skips the links of near-duplicates; else null. Guarded by its lock. */
    private final @Nullable NearDuplicates<String> nearDuplicates;
    private final ReentrantLock nearDuplicatesLock = new ReentrantLock();

    Harvester(long jobId, CrawlConfig config, Frontier frontier, @Nullable PageHandler handler, ExecutorService parsers) {
        this.jobId = jobId;
        this.parsers = parsers;
        this.config = config;
        this.scope = LinkScope.of(config);
        this.frontier = frontier;
        this.extraction = Extraction.of(config);
        this.content = config.output().contentRequest();
        this.handler = handler;
        this.agentToken = Robots.productToken(config.fetch().userAgent());
        this.nearDuplicates = config.freshness().skipNearDuplicates() ? new NearDuplicates<>() : null;
    }

    Harvest harvest(Lease lease, FetchResult result) {
        return switch (result) {
            case FetchResult.Failed f -> new Harvest(answered(lease, f.status(), f.contentType(), f.nanos())
                    .bytes(f.bytes()).failure(f.kind().label(), f.detail()).build(), List.of());
            case FetchResult.Response r when r.redirect() -> redirect(lease, r);
            case FetchResult.Response r when !r.html() -> new Harvest(identified(answered(lease, r.status(),
                    r.contentType(), r.nanos()), r).bytes(r.body().length).body(kept(r.body()))
                    .canonical(headerCanonical(lease, r))
                    .noindex(RobotsDirectives.ofHeaders(r.headers(), agentToken).noindex()).build(), List.of());
            case FetchResult.Response r -> page(lease, r);
        };
    }

    private Harvest redirect(Lease lease, FetchResult.Response r) {
        String location = r.location().orElse(null);
        if (location == null) {
            return new Harvest(answered(lease, r.status(), r.contentType(), r.nanos())
                    .detail(redirectDetail(null)).build(), List.of());
        }
        CrawlUrl.Check check = CrawlUrl.check(location, lease.url().web());
        CrawlUrl target = check instanceof CrawlUrl.Check.Ok ok ? ok.url() : null;
        boolean loop = target != null && (target.url().equals(lease.url().url())
                || lease.redirects() > 0 && target.url().equals(lease.referrer()));
        if (loop) {
            return new Harvest(answered(lease, r.status(), r.contentType(), r.nanos())
                    .failure(FailureKind.REDIRECT_LOOP.label(), "redirect loop: " + lease.url().url() + " -> " + target)
                    .build(), List.of());
        }
        List<Lease.Found> links = new ArrayList<>(1);
        List<String> outlinks = new ArrayList<>(1);
        if (target != null && lease.redirects() < config.fetch().maxRedirects()) {
            sort(target, true, true, outlinks, links);
        }
        String detail = redirectDetail(check) + (target != null && lease.redirects() >= config.fetch().maxRedirects()
                ? " (not followed: " + config.fetch().maxRedirects() + " hops)" : "");
        return new Harvest(answered(lease, r.status(), r.contentType(), r.nanos()).detail(detail).outlinks(outlinks)
                .build(), links);
    }

    /**
     * A redirect as a row tells it: the URL its {@code Location} resolves to, or why that is no URL a crawl
     * follows; never the {@code Location} itself, which may carry a password, or be 60 KB long.
     *
     * @param location the check of its {@code Location}; null when it has none
     */
    static String redirectDetail(CrawlUrl.@Nullable Check location) {
        return switch (location) {
            case null -> "redirect without Location";
            case CrawlUrl.Check.Ok ok -> "redirect to " + ok.url().url();
            case CrawlUrl.Check.Ignored ignored -> "redirect not followed: " + ignored.reason();
            case CrawlUrl.Check.Invalid invalid -> "redirect not followed: " + invalid.reason();
        };
    }

    private Harvest page(Lease lease, FetchResult.Response r) {
        PageParser.Parsed parsed = PageParser.parse(parsers, r.body(), r.charset().orElse(null), lease.url().url(),
                agentToken, PageParser.Headers.of(r.headers()), content);
        Set<String> outlinks = new LinkedHashSet<>();
        List<Lease.Found> links = new ArrayList<>(parsed.links().size());
        List<String> ordered = new ArrayList<>(parsed.links().size());
        String duplicateOf = nearDuplicateOf(lease.url().url(), parsed.simhash());
        for (PageParser.Link link : parsed.links()) {
            sort(link.url(), (link.follow() || config.scope().ignoreNofollow()) && duplicateOf == null, false, ordered,
                    links);
        }
        outlinks.addAll(ordered);
        Map<String, Object> fields = extraction.isEmpty() ? Map.of() : extraction.apply(parsed.document());
        String detail = joined(r.cutNote(), duplicateOf == null ? null
                : "near-duplicate of " + duplicateOf + ": links not followed");
        if (parsed.content() != null) {
            detail = joined(detail, parsed.content().problem());
        }
        if (handler != null) {
            try {
                Map<String, Object> handled = handler.handle(new FetchedPage(lease.url().url(), lease.depth(),
                        r.status(), r.headers().map(), parsed.document()));
                if (handled != null && !handled.isEmpty()) {
                    Map<String, Object> merged = new LinkedHashMap<>(fields);
                    merged.putAll(handled);
                    fields = merged;
                }
            } catch (Exception e) {
                detail = "page handler failed: " + e;
            }
        }
        return new Harvest(identified(answered(lease, r.status(), r.contentType(), r.nanos()), r).title(parsed.title())
                .simhash(parsed.simhash())
                .bytes(r.body().length).detail(detail).outlinks(List.copyOf(outlinks)).fields(fields)
                .canonical(parsed.canonical() != null ? parsed.canonical() : headerCanonical(lease, r))
                .body(kept(r.body())).noindex(parsed.robots().noindex())
                .content(parsed.content() == null ? null : parsed.content().content()).build(), links);
    }

    /** Two notes on a row as one {@code detail}; null when there are none. */
    static @Nullable String joined(@Nullable String note, @Nullable String other) {
        return note == null ? other : other == null ? note : note + "; " + other;
    }

    /**
     * The stored page {@code url}'s text nearly duplicates (its SimHash within {@value Fingerprints#NEAR} bits),
     * when the job skips such pages' links; else null, and the page is remembered as the first of its kind.
     */
    private @Nullable String nearDuplicateOf(String url, long simhash) {
        if (nearDuplicates == null) {
            return null;
        }
        nearDuplicatesLock.lock();
        try {
            String first = nearDuplicates.find(simhash);
            if (first == null) {
                nearDuplicates.add(simhash, url);
            }
            return first == null || first.equals(url) ? null : first;
        } finally {
            nearDuplicatesLock.unlock();
        }
    }

    /** A link: into the outlinks, and to the frontier when it is to be followed and in scope. */
    private void sort(CrawlUrl url, boolean follow, boolean redirect, List<String> outlinks, List<Lease.Found> links) {
        outlinks.add(url.url());
        if (!follow) {
            return;
        }
        if (frontier.knows(url.url())) {
            links.add(new Lease.Found.Link(url.url(), null, redirect)); // for a shorter path to it
        } else if (!frontier.full() && scope.allows(url)) {
            links.add(new Lease.Found.Link(url.url(), url, redirect));
        }
    }

    /** Links to follow from a list of URLs (a sitemap's): in scope, new or known, never nofollow. */
    public List<Lease.Found> links(List<String> urls) {
        List<Lease.Found> links = new ArrayList<>(urls.size());
        List<String> ignored = new ArrayList<>(urls.size());
        for (String url : urls) {
            if (CrawlUrl.check(url) instanceof CrawlUrl.Check.Ok ok) {
                sort(ok.url(), true, false, ignored, links);
            }
        }
        return links;
    }

    /** The response's identity: its validators as the server sent them, and the body's digest. */
    private static PageRecord.Builder identified(PageRecord.Builder row, FetchResult.Response r) {
        return row.etag(r.headers().firstValue("ETag").orElse(null))
                .lastModified(r.headers().firstValue("Last-Modified").orElse(null))
                .digest(r.body().length == 0 ? null : Fingerprints.sha256(r.body()));
    }

    /** The canonical URL the response's {@code Link} header names, resolved against the URL fetched; or null. */
    private static @Nullable String headerCanonical(Lease lease, FetchResult.Response r) {
        String target = LinkHeader.canonical(String.join(", ", r.headers().allValues("Link")));
        return target != null && CrawlUrl.check(target, lease.url().web()) instanceof CrawlUrl.Check.Ok ok
                ? ok.url().url() : null;
    }

    private byte @Nullable [] kept(byte[] body) {
        return config.output().storeBody() && body.length > 0 ? body : null;
    }

    /** Records a URL without a request: robots.txt forbids it, or its host was given up. */
    public PageRecord skipped(Lease lease, Lease.Skip skip) {
        return row(lease).failure(skip.kind().label(), skip.detail()).build();
    }

    /** Records a URL whose task met a bug of ours, so that the job goes on without it. */
    public PageRecord internalFailure(Lease lease, Throwable e) {
        return row(lease).failure(FailureKind.INTERNAL.label(), "internal error: " + e).build();
    }

    /** A row of the lease's URL, with what every row of a task has: its depth, referrer and task time. */
    private PageRecord.Builder row(Lease lease) {
        return PageRecord.of(jobId, lease.url().url()).depth(lease.depth()).referrer(lease.referrer())
                .pageMillis((System.nanoTime() - lease.leasedNanos()) / 1e6);
    }

    /**
     * A row of an exchange: its status, type and time, and the attempt it was (a record made without a
     * request counts none).
     */
    private PageRecord.Builder answered(Lease lease, int status, @Nullable String contentType, long fetchNanos) {
        boolean requested = fetchNanos > 0 || status > 0;
        return row(lease).status(status).contentType(contentType).fetchMillis(fetchNanos / 1e6)
                .attempts(requested ? lease.attempt() : 0);
    }
}
