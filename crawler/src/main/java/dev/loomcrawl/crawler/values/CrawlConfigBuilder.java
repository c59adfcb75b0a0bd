package dev.loomcrawl.crawler.values;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CrawlConfig} built by name, every setting defaulted: {@code CrawlConfig.builder().seed(url).build()}.
 * Mutable; {@link #build()} validates (each group of settings checks itself, {@link ConfigChecks}).
 */
public final class CrawlConfigBuilder {
    private final List<CrawlUrl> seeds = new ArrayList<>();
    private int maxDepth = 3;
    private int maxPages = 10_000;
    private int perHostConcurrency = 8;
    private int maxInFlight = 10_000;
    private Duration connectTimeout = CrawlConfig.DEFAULT_CONNECT_TIMEOUT;
    private Duration requestTimeout = Duration.ofSeconds(10);
    private Duration fetchDeadline = Duration.ofSeconds(30);
    private int maxRetries = 2;
    private Duration hostDelay = Duration.ZERO;
    private int hostFailureLimit = 10;
    private boolean refusePrivateAddresses;
    private boolean cookies;
    private int maxBodyBytes = 2 * 1024 * 1024;
    private int maxRedirects = 5;
    private String userAgent = CrawlConfig.DEFAULT_USER_AGENT;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final Set<String> allowedHosts = new LinkedHashSet<>();
    private final Set<String> allowedDomains = new LinkedHashSet<>();
    private final List<String> allowPatterns = new ArrayList<>();
    private final List<String> denyPatterns = new ArrayList<>();
    private boolean respectRobots = true;
    private Duration robotsRetryFor = Duration.ofMinutes(2);
    private PolitenessKey politenessKey = PolitenessKey.HOST;
    private boolean sitemaps;
    private boolean ignoreNofollow;
    private final Set<String> acceptTypes = new LinkedHashSet<>();
    private final Map<String, String> extract = new LinkedHashMap<>();
    private final Map<String, String> extractAll = new LinkedHashMap<>();
    private boolean storeBody;
    private @Nullable String warcFile;
    private ContentFormat content = ContentFormat.NONE;
    private int contentMaxChars = ContentFormat.DEFAULT_MAX_CHARS;
    private boolean ignoreNoindex;
    private ExecutionMode mode = ExecutionMode.VIRTUAL;
    private int poolSize = 200;
    private Freshness.@Nullable Revisit revisit;
    private boolean skipNearDuplicates;
    private Freshness.@Nullable Webhook webhook;

    CrawlConfigBuilder() {}

    /** Adds a seed; throws {@link ConfigException} for field {@code seeds[i]} if it is not crawlable. */
    public CrawlConfigBuilder seed(String url) {
        try {
            seeds.add(CrawlUrl.of(url));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("seeds[" + seeds.size() + "]", url, String.valueOf(e.getMessage()));
        }
        return this;
    }

    public CrawlConfigBuilder seeds(List<String> urls) {
        urls.forEach(this::seed);
        return this;
    }

    public CrawlConfigBuilder maxDepth(int value) { maxDepth = value; return this; }
    public CrawlConfigBuilder maxPages(int value) { maxPages = value; return this; }
    public CrawlConfigBuilder perHostConcurrency(int value) { perHostConcurrency = value; return this; }
    public CrawlConfigBuilder maxInFlight(int value) { maxInFlight = value; return this; }
    public CrawlConfigBuilder connectTimeout(Duration value) { connectTimeout = value; return this; }
    public CrawlConfigBuilder requestTimeout(Duration value) { requestTimeout = value; return this; }
    public CrawlConfigBuilder fetchDeadline(Duration value) { fetchDeadline = value; return this; }
    public CrawlConfigBuilder maxRetries(int value) { maxRetries = value; return this; }
    public CrawlConfigBuilder hostDelay(Duration value) { hostDelay = value; return this; }
    public CrawlConfigBuilder hostFailureLimit(int value) { hostFailureLimit = value; return this; }
    public CrawlConfigBuilder refusePrivateAddresses(boolean value) { refusePrivateAddresses = value; return this; }
    public CrawlConfigBuilder cookies(boolean value) { cookies = value; return this; }
    public CrawlConfigBuilder maxBodyBytes(int value) { maxBodyBytes = value; return this; }
    public CrawlConfigBuilder maxRedirects(int value) { maxRedirects = value; return this; }
    public CrawlConfigBuilder userAgent(String value) { userAgent = value; return this; }
    public CrawlConfigBuilder header(String name, String value) { headers.put(name, value); return this; }
    public CrawlConfigBuilder allowHost(String host) { allowedHosts.add(host); return this; }
    public CrawlConfigBuilder allowDomain(String domain) { allowedDomains.add(domain); return this; }
    public CrawlConfigBuilder allowPattern(String regex) { allowPatterns.add(regex); return this; }
    public CrawlConfigBuilder denyPattern(String regex) { denyPatterns.add(regex); return this; }
    public CrawlConfigBuilder respectRobots(boolean value) { respectRobots = value; return this; }
    public CrawlConfigBuilder robotsRetryFor(Duration value) { robotsRetryFor = value; return this; }
    public CrawlConfigBuilder politenessKey(PolitenessKey value) { politenessKey = value; return this; }
    public CrawlConfigBuilder sitemaps(boolean value) { sitemaps = value; return this; }
    public CrawlConfigBuilder ignoreNofollow(boolean value) { ignoreNofollow = value; return this; }
    public CrawlConfigBuilder acceptType(String type) { acceptTypes.add(type); return this; }
    public CrawlConfigBuilder extract(String name, String rule) { extract.put(name, rule); return this; }
    public CrawlConfigBuilder extractAll(String name, String rule) { extractAll.put(name, rule); return this; }
    public CrawlConfigBuilder storeBody(boolean value) { storeBody = value; return this; }
    public CrawlConfigBuilder warcFile(@Nullable String value) { warcFile = value; return this; }
    public CrawlConfigBuilder content(ContentFormat value) { content = value; return this; }
    public CrawlConfigBuilder contentMaxChars(int value) { contentMaxChars = value; return this; }
    public CrawlConfigBuilder ignoreNoindex(boolean value) { ignoreNoindex = value; return this; }
    public CrawlConfigBuilder mode(ExecutionMode value) { mode = value; return this; }
    public CrawlConfigBuilder poolSize(int value) { poolSize = value; return this; }
    /** Makes the job continuous: each stored page is revisited, every {@code min} at most and {@code max} at least. */
    public CrawlConfigBuilder revisit(Duration min, Duration max) { revisit = new Freshness.Revisit(min, max); return this; }
    public CrawlConfigBuilder revisit(Freshness.@Nullable Revisit value) { revisit = value; return this; }
    public CrawlConfigBuilder skipNearDuplicates(boolean value) { skipNearDuplicates = value; return this; }
    /** A missing url or secret is refused as an empty one is, naming its field. */
    public CrawlConfigBuilder webhook(@Nullable String url, @Nullable String secret) {
        webhook = new Freshness.Webhook(url == null ? "" : url, secret == null ? "" : secret);
        return this;
    }
    public CrawlConfigBuilder webhook(Freshness.@Nullable Webhook value) { webhook = value; return this; }

    public CrawlConfig build() {
        return new CrawlConfig(
                new CrawlConfig.Scope(seeds, maxDepth, maxPages, allowedHosts, allowedDomains, allowPatterns, denyPatterns,
                        sitemaps, ignoreNofollow, acceptTypes),
                new CrawlConfig.Politeness(perHostConcurrency, hostDelay, hostFailureLimit, respectRobots, robotsRetryFor,
                        maxRetries, politenessKey),
                new CrawlConfig.Fetch(connectTimeout, requestTimeout, fetchDeadline, maxBodyBytes, maxRedirects, userAgent,
                        headers, refusePrivateAddresses, cookies),
                new CrawlConfig.Output(extract, extractAll, storeBody, warcFile, content, contentMaxChars,
                        ignoreNoindex),
                new CrawlConfig.Execution(mode, poolSize, maxInFlight),
                new Freshness(revisit, skipNearDuplicates, webhook));
    }

    /** A builder holding {@code config}'s values. */
    static CrawlConfigBuilder of(CrawlConfig config) {
        CrawlConfigBuilder b = new CrawlConfigBuilder();
        b.seeds.addAll(config.scope().seeds());
        b.maxDepth = config.scope().maxDepth();
        b.maxPages = config.scope().maxPages();
        b.perHostConcurrency = config.politeness().perHostConcurrency();
        b.maxInFlight = config.execution().maxInFlight();
        b.connectTimeout = config.fetch().connectTimeout();
        b.requestTimeout = config.fetch().requestTimeout();
        b.fetchDeadline = config.fetch().fetchDeadline();
        b.maxRetries = config.politeness().maxRetries();
        b.hostDelay = config.politeness().hostDelay();
        b.hostFailureLimit = config.politeness().hostFailureLimit();
        b.refusePrivateAddresses = config.fetch().refusePrivateAddresses();
        b.cookies = config.fetch().cookies();
        b.maxBodyBytes = config.fetch().maxBodyBytes();
        b.maxRedirects = config.fetch().maxRedirects();
        b.userAgent = config.fetch().userAgent();
        b.headers.putAll(config.fetch().headers());
        b.allowedHosts.addAll(config.scope().allowedHosts());
        b.allowedDomains.addAll(config.scope().allowedDomains());
        b.allowPatterns.addAll(config.scope().allowPatterns());
        b.denyPatterns.addAll(config.scope().denyPatterns());
        b.respectRobots = config.politeness().respectRobots();
        b.robotsRetryFor = config.politeness().robotsRetryFor();
        b.politenessKey = config.politeness().politenessKey();
        b.sitemaps = config.scope().sitemaps();
        b.ignoreNofollow = config.scope().ignoreNofollow();
        b.acceptTypes.addAll(config.scope().acceptTypes());
        b.extract.putAll(config.output().extract());
        b.extractAll.putAll(config.output().extractAll());
        b.storeBody = config.output().storeBody();
        b.warcFile = config.output().warcFile();
        b.content = config.output().content();
        b.contentMaxChars = config.output().contentMaxChars();
        b.ignoreNoindex = config.output().ignoreNoindex();
        b.mode = config.execution().mode();
        b.poolSize = config.execution().poolSize();
        b.revisit = config.freshness().revisit();
        b.skipNearDuplicates = config.freshness().skipNearDuplicates();
        b.webhook = config.freshness().webhook();
        return b;
    }
}
