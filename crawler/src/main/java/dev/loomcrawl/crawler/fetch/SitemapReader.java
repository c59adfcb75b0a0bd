package dev.loomcrawl.crawler.fetch;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import dev.loomcrawl.crawler.url.WebUrl;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A host's sitemaps, read right after its robots.txt, under the same permit: the {@code Sitemap:} lines of
 * robots.txt and {@code /sitemap.xml}, sitemap indexes followed, gzipped sitemaps unpacked, all parsed by
 * crawler-commons' {@link SiteMapParser}. Only sitemaps on the host itself are fetched (this task holds
 * its permit, no other host's), at most {@value #MAX_DOCUMENTS} documents and {@value #MAX_URLS} URLs a host.
 */
public final class SitemapReader {
    static final int MAX_DOCUMENTS = 20;
    static final int MAX_URLS = 50_000;

    private SitemapReader() {}

    /**
     * What a host's sitemaps list, by the sitemap that listed them (each URL's referrer), in the order read.
     *
     * @param listed the {@code Sitemap:} lines of the host's robots.txt
     * @param allowed whether its robots.txt allows a URL ({@code /sitemap.xml} is read only if so)
     * @param mayStart asked before each request (see {@link Fetcher#fetch}); when it says no, reading stops
     *     and what was listed so far is returned; or null
     */
    public static Map<String, List<String>> read(Fetcher fetcher, CrawlUrl anyPage, List<String> listed, Predicate<CrawlUrl> allowed,
            @Nullable BooleanSupplier mayStart)
            throws InterruptedException {
        Set<String> locations = new LinkedHashSet<>();
        WebUrl base = anyPage.web();
        for (String s : listed) {
            if (CrawlUrl.check(s, base) instanceof CrawlUrl.Check.Ok ok) {
                locations.add(ok.url().url());
            }
        }
        CrawlUrl standard = CrawlUrl.of(anyPage.origin() + "/sitemap.xml");
        if (allowed.test(standard)) {
            locations.add(standard.url());
        }
        Deque<String> queue = new ArrayDeque<>(locations);
        Set<String> seen = new LinkedHashSet<>();
        Map<String, List<String>> bySitemap = new LinkedHashMap<>();
        int urls = 0;
        SiteMapParser parser = new SiteMapParser(false); // scope and robots are ours to apply, as for any link
        while (!queue.isEmpty() && seen.size() < MAX_DOCUMENTS && urls < MAX_URLS) {
            String location = queue.poll();
            CrawlUrl url = location == null ? null : CrawlUrl.parse(location).orElse(null);
            if (url == null || !url.hostKey().equals(anyPage.hostKey()) || !seen.add(url.url())) {
                continue;
            }
            FetchResult result;
            try {
                result = fetcher.fetch(url, Fetcher.Purpose.SITEMAP, null, mayStart);
            } catch (Fetcher.NotSent e) {
                break; // the host may not be asked now (a cluster node's lease ran out): keep what was listed
            }
            if (!(result instanceof FetchResult.Response r) || r.status() != 200) {
                continue; // a missing or failing sitemap is no error of the crawl
            }
            AbstractSiteMap map;
            try {
                map = parser.parseSiteMap(r.contentType(), r.body(), url.toUri().toURL());
            } catch (UnknownFormatException | IOException | IllegalArgumentException e) {
                continue;
            }
            if (map instanceof SiteMapIndex index) {
                for (AbstractSiteMap child : index.getSitemaps()) {
                    queue.add(child.getUrl().toString());
                }
            } else if (map instanceof SiteMap sitemap) {
                for (SiteMapURL entry : sitemap.getSiteMapUrls()) {
                    if (urls >= MAX_URLS) {
                        break;
                    }
                    bySitemap.computeIfAbsent(url.url(), k -> new ArrayList<>()).add(entry.getUrl().toString());
                    urls++;
                }
            }
        }
        return bySitemap;
    }
}
