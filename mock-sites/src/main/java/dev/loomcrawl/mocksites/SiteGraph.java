package dev.loomcrawl.mocksites;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The farm's web, computed from the path, never stored: page {@code i} of host {@code h} and everything
 * on it follow from the {@link FarmConfig} and its seed alone. Same seed, same graph.
 *
 * <p>Each host's pages form a tree of branching {@link #branching()} from {@code /} (page 0), so every
 * page is reachable from its host's root within {@link #maxDepth()} links; the remaining links of a page
 * point to random pages, some on other hosts.
 */
public final class SiteGraph {
    /** Host names are {@code h<N>.loomcrawl.test}: {@code .test} is reserved (RFC 6761) and never public. */
    public static final String DOMAIN = "loomcrawl.test";

    private static final String[] WORDS = ("loom weave thread fiber carrier park mount yield stack heap frontier "
            + "crawl fetch parse link host permit queue socket latency throughput semaphore lock signal await")
            .split(" ");

    private final FarmConfig config;
    private final int port;
    private final int branching;
    private final String filler;

    public SiteGraph(FarmConfig config, int port) {
        this.config = config;
        this.port = port;
        this.branching = Math.max(2, config.linksPerPage() / 2);
        this.filler = filler(config.pageBytes());
    }

    public FarmConfig config() {
        return config;
    }

    public int port() {
        return port;
    }

    public int branching() {
        return branching;
    }

    public static String hostName(int host) {
        return "h" + host + "." + DOMAIN;
    }

    /** Host index from a Host header ({@code h12.loomcrawl.test:8080}), or -1 if it is not one of ours. */
    public int hostIndex(String hostHeader) {
        if (hostHeader == null || hostHeader.isEmpty() || (hostHeader.charAt(0) | 0x20) != 'h') {
            return -1;
        }
        int colon = hostHeader.indexOf(':');
        String name = (colon < 0 ? hostHeader : hostHeader.substring(0, colon)).toLowerCase(Locale.ROOT);
        int dot = name.indexOf('.');
        if (dot < 2 || !name.substring(dot + 1).equals(DOMAIN)) {
            return -1;
        }
        int host = parseIndex(name, 1, dot);
        return host < config.hosts() ? host : -1;
    }

    /** A non-negative int in {@code s[from, to)}, or -1. */
    static int parseIndex(String s, int from, int to) {
        if (from >= to || to - from > 9) {
            return -1;
        }
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    public String url(int host, String path) {
        return "http://" + hostName(host) + ":" + port + path;
    }

    public static String pagePath(int page) {
        return page == 0 ? "/" : "/page/" + page;
    }

    /** Every host's root. */
    public List<String> seedUrls() {
        List<String> seeds = new ArrayList<>(config.hosts());
        for (int h = 0; h < config.hosts(); h++) {
            seeds.add(url(h, "/"));
        }
        return seeds;
    }

    /** Links from the root to {@code page} along the tree. */
    public int depthOf(int page) {
        int depth = 0;
        while (page > 0) {
            page = (page - 1) / branching;
            depth++;
        }
        return depth;
    }

    /** Depth that reaches every page of every host from its root. */
    public int maxDepth() {
        return depthOf(config.pagesPerHost() - 1);
    }

    public String title(int host, int page) {
        return "h" + host + " page " + page + " " + WORDS[(int) Long.remainderUnsigned(mix(host, page, 7), WORDS.length)];
    }

    /** The hrefs on a page, in page order: relative for this host, absolute for others. */
    public List<String> links(int host, int page) {
        int pages = config.pagesPerHost();
        List<String> links = new ArrayList<>(config.linksPerPage() + 3);
        for (int k = 1; k <= branching && links.size() < config.linksPerPage(); k++) {
            long child = (long) page * branching + k;
            if (child < pages) {
                links.add(redirected(host, page, k) ? "/go/" + config.faults().redirectHops() + "/page/" + child
                        : pagePath((int) child));
            }
        }
        for (int k = links.size(); k < config.linksPerPage(); k++) {
            long r = mix(host, page, 100 + k);
            int target = (int) Long.remainderUnsigned(r >>> 20, pages);
            boolean otherHost = config.hosts() > 1 && unit(r) < config.crossHostLinks();
            if (otherHost) {
                int other = (int) Long.remainderUnsigned(r >>> 40, config.hosts());
                links.add(url(other, pagePath(target)));
            } else {
                links.add(pagePath(target));
            }
        }
        if (config.robotsLinks()) {
            links.add("/private/" + page);
        }
        if (unit(mix(host, page, 3)) < config.faults().nonHtmlLinks()) {
            links.add("/files/" + page + ".pdf");
        }
        if (config.faults().trap() && page == 0) {
            links.add("/calendar/1");
        }
        return links;
    }

    private boolean redirected(int host, int page, int k) {
        return unit(mix(host, page, 50 + k)) < config.faults().redirectLinks();
    }

    public String pageHtml(int host, int page) {
        return html(title(host, page), links(host, page));
    }

    /** The trap: month {@code n} links to month {@code n+1} and to a day of its own, forever. */
    public String calendarHtml(String path, int month) {
        return html("calendar " + month, List.of("/calendar/" + (month + 1), path + "/day-" + (month % 28 + 1)));
    }

    String html(String title, List<String> links) {
        return html(title, links, filler);
    }

    /** A page with {@code text} in place of the filler. */
    String html(String title, List<String> links, String text) {
        StringBuilder b = new StringBuilder(256 + links.size() * 64 + text.length());
        b.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title></head><body><h1>").append(title).append("</h1><ul>");
        for (String link : links) {
            b.append("<li><a href=\"").append(link).append("\">").append(link).append("</a></li>");
        }
        return b.append("</ul><p>").append(text).append("</p></body></html>").toString();
    }

    public String robotsTxt() {
        return "User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n\nSitemap: /sitemap.xml\n";
    }

    public String sitemapXml(int host) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (int p = 0; p < Math.min(config.pagesPerHost(), 50_000); p++) {
            b.append("<url><loc>").append(url(host, pagePath(p))).append("</loc></url>\n");
        }
        return b.append("</urlset>\n").toString();
    }

    String filler() {
        return filler;
    }

    /** Words drawn at random for page {@code page} of {@code host} at {@code version}: another text for each version. */
    String words(int host, int page, int version, int bytes) {
        StringBuilder b = new StringBuilder(bytes + 16);
        for (int i = 0; b.length() < bytes; i++) {
            b.append(WORDS[(int) Long.remainderUnsigned(mix(host * 31L + version, page, i), WORDS.length)])
                    .append(i % 17 == 16 ? ". " : " ");
        }
        return b.substring(0, bytes);
    }

    String filler(int bytes) {
        StringBuilder b = new StringBuilder(bytes + 16);
        for (int i = 0; b.length() < bytes; i++) {
            b.append(WORDS[i % WORDS.length]).append(i % 17 == 16 ? ". " : " ");
        }
        return b.substring(0, bytes);
    }

    /** SplitMix64 of the seed and three coordinates: cheap, well mixed, and the same on every run. */
    long mix(long a, long b, long c) {
        long z = config.seed() + a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL + c * 0x165667B19E3779F9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static double unit(long r) {
        return (r >>> 11) * 0x1.0p-53;
    }
}
