package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Hooks;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlConfigBuilder;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Freshness;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loomcrawl crawl}: one crawl, start to end, with progress on stderr and a summary at the end. */
@Command(name = "crawl", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Crawl from the given seeds and print a summary (JSON with --json). Ctrl-C suspends the job"
                + " (resume it with 'loomcrawl resume'); a second Ctrl-C stops at once.")
final class CrawlCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "URL", arity = "0..*", description = "Seed URLs (http or https).")
    List<String> urls = new ArrayList<>();

    @Option(names = "--seeds-file", paramLabel = "FILE", description = "More seeds, one URL per line (UTF-8); # comments.")
    @Nullable Path seedsFile;
    @Mixin
    EngineOptions engine;

    @Option(names = "--per-host", paramLabel = "N", defaultValue = "8",
            description = "Fetches in flight to one host at most (default: ${DEFAULT-VALUE}).")
    int perHost;

    @Mixin
    PolitenessOptions politeness;

    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "3",
            description = "Links followed from a seed (default: ${DEFAULT-VALUE}).")
    int maxDepth;

    @Option(names = "--max-pages", paramLabel = "N", defaultValue = "10000",
            description = "URLs fetched at most (default: ${DEFAULT-VALUE}).")
    int maxPages;

    @Option(names = "--allow-host", paramLabel = "HOST", split = ",",
            description = "Hosts whose links are followed, exactly (default: the seeds' hosts; * for any).")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--allow-domain", paramLabel = "DOMAIN", split = ",",
            description = "Domains whose links are followed, with every subdomain (example.com admits www.example.com).")
    List<String> allowDomains = new ArrayList<>();

    @Option(names = "--allow-url", paramLabel = "REGEX",
            description = "Only links whose URL matches this regular expression (or another --allow-url) are followed;"
                    + " repeatable. RE2 syntax, as --deny-url, which still applies.")
    List<String> allowPatterns = new ArrayList<>();

    @Option(names = "--deny-url", paramLabel = "REGEX",
            description = "Links whose URL matches this regular expression are not followed; repeatable. RE2 syntax,"
                    + " matched in linear time: backreferences and lookaround are refused.")
    List<String> denyPatterns = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Seconds to wait for response headers (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Option(names = "--fetch-deadline", paramLabel = "SECONDS", defaultValue = "30",
            description = "Seconds for a whole fetch, body included (default: ${DEFAULT-VALUE}).")
    double fetchDeadlineSeconds;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "2",
            description = "Further attempts after a connect error, reset, timeout, 5xx or 429; three times as many when the"
                    + " answer has a Retry-After (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--host-delay-ms", paramLabel = "MS", defaultValue = "0",
            description = "Least time between two requests to one host (default: ${DEFAULT-VALUE}).")
    long hostDelayMs;

    @Option(names = "--refuse-private", description = "Refuse hosts that resolve to loopback or private addresses.")
    boolean refusePrivate;

    @Option(names = "--ignore-robots", description = "Do not fetch or obey robots.txt.")
    boolean ignoreRobots;

    @Option(names = "--robots-retry-for", paramLabel = "SECONDS", defaultValue = "120",
            description = "How long a host whose robots.txt cannot be had is retried before it is given up"
                    + " (default: ${DEFAULT-VALUE}).")
    double robotsRetryForSeconds;

    @Option(names = "--user-agent", paramLabel = "TEXT", description = "The User-Agent header; its first word is the"
            + " robots.txt product token (default: " + CrawlConfig.DEFAULT_USER_AGENT + ").")
    @Nullable String userAgent;
    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "A request header; repeatable.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--sitemaps", description = "Read each host's sitemaps (robots.txt's Sitemap: lines and"
            + " /sitemap.xml) and crawl their URLs at depth 1.")
    boolean sitemaps;

    @Option(names = "--ignore-nofollow", description = "Follow rel=nofollow links and pages marked nofollow.")
    boolean ignoreNofollow;
    @Option(names = "--cookies", description = "Keep the cookies servers set and send them back, as a browser does,"
            + " for this run of the job (a redirect to the same URL that sets one is asked again with it).")
    boolean cookies;

    @Option(names = "--accept-type", paramLabel = "TYPE", description = "Keep responses of this media type too"
            + " (application/pdf, image/*), never parsed; repeatable.")
    List<String> acceptTypes = new ArrayList<>();

    @Option(names = "--extract", paramLabel = "NAME=CSS[@ATTR]", description = "Keep the text (or attribute) of the"
            + " first match of a CSS selector, under NAME in each row's fields; repeatable.")
    List<String> extract = new ArrayList<>();

    @Option(names = "--extract-all", paramLabel = "NAME=CSS[@ATTR]", description = "Like --extract, every match,"
            + " as a list; repeatable.")
    List<String> extractAll = new ArrayList<>();

    @Option(names = "--output", paramLabel = "FILE", description = "Write every row as it is stored: JSON Lines"
            + " (.jsonl, .ndjson, .json) or CSV (.csv), gzipped for a name ending .gz; '-' for JSON Lines on stdout"
            + " (the summary then goes to stderr).")
    @Nullable String output;
    @Option(names = "--warc", paramLabel = "FILE", description = "Write a WARC request and response record for every"
            + " fetch stored (.warc, or .warc.gz gzipped per record).")
    @Nullable String warc;
    @Option(names = "--max-body-bytes", paramLabel = "N", defaultValue = "2097152", description = "Bytes of a page"
            + " kept at most, decoded (default ${DEFAULT-VALUE}, 2 MiB); a longer page fails as too-large.")
    int maxBodyBytes;
    @Option(names = "--store-body", description = "Keep each page's body in the store, for export.")
    boolean storeBody;

    @Option(names = "--content", paramLabel = "markdown|text", description = "Keep each page's main content (no"
            + " menus, footers, side bars, comments or banners) in the row's 'content' field, as Markdown (headings,"
            + " lists, tables, code, links) or plain text; with the page's lang, description, author and published.")
    @Nullable String content;
    @Option(names = "--content-max-chars", paramLabel = "N", description = "Cut content longer than this, saying"
            + " so at its end (default ${DEFAULT-VALUE}).", defaultValue = "200000")
    int contentMaxChars;
    @Option(names = "--ignore-noindex", description = "Keep the content of pages that ask not to be indexed (noindex"
            + " in a robots <meta> or X-Robots-Tag) too; their rows say noindex either way.")
    boolean ignoreNoindex;

    @Option(names = "--revisit-min", paramLabel = "DURATION", description = "Make the job continuous: revisit each"
            + " stored page, conditionally, at most this often (30s, 1m, 2h, 7d; default 1m when --revisit-max is"
            + " given). It runs until Ctrl-C; 'loomcrawl resume' continues it.")
    @Nullable String revisitMin;
    @Option(names = "--revisit-max", paramLabel = "DURATION", description = "Revisit each page at least this often"
            + " (default 7d when --revisit-min is given).")
    @Nullable String revisitMax;
    @Option(names = "--skip-near-duplicates", description = "Do not follow the links of a page whose text nearly"
            + " duplicates a page already stored (SimHash within 3 bits): a guard against soft traps.")
    boolean skipNearDuplicates;

    @Option(names = "--webhook-url", paramLabel = "URL", description = "POST each change event of a continuous job"
            + " (--revisit-min/--revisit-max) here (JSON, signed with --webhook-secret in X-Loomcrawl-Signature).")
    @Nullable String webhookUrl;
    @Option(names = "--webhook-secret", paramLabel = "TEXT", description = "The HMAC-SHA256 key of the webhook's"
            + " signatures.")
    @Nullable String webhookSecret;
    @Mixin
    InFlightOptions inFlight;

    @Mixin
    ConnectionOptions connections;

    @Mixin
    ReportOptions report;

    @Override
    public Integer call() throws Exception {
        if (Main.CHECK_ONLY && seedsFile != null && !Files.isRegularFile(seedsFile)) {
            return 0; // a pipe (--seeds-file=<(...)) can be read once, by the crawl
        }
        CrawlConfig config = config();
        CrawlerOptions process = connections.on(politeness.on(inFlight.options(perHost)));
        if (Main.CHECK_ONLY) {
            return 0;
        }
        RowOutput rows = RowOutput.open(output, false, Export.Columns.of(config.output()), spec.commandLine().getOut()); // a bad path fails before anything is crawled
        return Foreground.run(spec, engine.db, process,
                (crawler, listener) -> crawler.start(config, new Hooks(null, listener)), rows, report.json, report.quiet);
    }

    CrawlConfig config() throws IOException {
        List<Seed> seeds = seeds();
        CrawlConfigBuilder b = CrawlConfig.builder()
                .mode(engine.executionMode())
                .poolSize(engine.poolSize)
                .perHostConcurrency(perHost)
                .politenessKey(politeness.key())
                .maxDepth(maxDepth)
                .maxPages(maxPages)
                .maxInFlight(inFlight.maxInFlight())
                .requestTimeout(seconds(timeoutSeconds))
                .fetchDeadline(seconds(fetchDeadlineSeconds))
                .maxRetries(retries)
                .hostDelay(Duration.ofMillis(hostDelayMs))
                .refusePrivateAddresses(refusePrivate)
                .cookies(cookies)
                .respectRobots(!ignoreRobots)
                .robotsRetryFor(seconds(robotsRetryForSeconds))
                .sitemaps(sitemaps)
                .ignoreNofollow(ignoreNofollow)
                .maxBodyBytes(maxBodyBytes)
                .storeBody(storeBody)
                .content(content == null ? ContentFormat.NONE : Flags.contentFormat("--content", content))
                .contentMaxChars(contentMaxChars)
                .ignoreNoindex(ignoreNoindex)
                .warcFile(warc);
        if (userAgent != null) {
            b.userAgent(userAgent);
        }
        headers(b);
        if (revisitMin != null || revisitMax != null) {
            Duration min = revisitMin == null ? null : Flags.duration("--revisit-min", revisitMin);
            Duration max = revisitMax == null ? null : Flags.duration("--revisit-max", revisitMax);
            b.revisit(Freshness.Revisit.of(min, max));
        }
        b.skipNearDuplicates(skipNearDuplicates);
        if (webhookUrl != null || webhookSecret != null) {
            b.webhook(webhookUrl, webhookSecret);
        }
        rules(extract, "--extract", b::extract);
        rules(extractAll, "--extract-all", b::extractAll);
        for (Seed seed : seeds) {
            try {
                b.seed(seed.url());
            } catch (ConfigException e) {
                throw seed.line() == 0 ? e
                        : new IllegalArgumentException("--seeds-file line " + seed.line() + ": " + e.problem());
            }
        }
        allowHosts.forEach(b::allowHost);
        allowDomains.forEach(b::allowDomain);
        allowPatterns.forEach(b::allowPattern);
        denyPatterns.forEach(b::denyPattern);
        acceptTypes.forEach(b::acceptType);
        return b.build();
    }

    /** A {@code #} that starts a line or follows white space, and the rest of the line. */
    private static final Pattern COMMENT = Pattern.compile("(^|\\s)#.*");

    /** A seed URL, and its line in {@code --seeds-file} (0: given on the command line). */
    private record Seed(String url, int line) {}

    /**
     * The seed URLs given, then those of {@code --seeds-file}: a line each, blank lines and comments skipped (a
     * line that starts with {@code #}, or what follows a {@code #} after white space: a URL has no space), a
     * byte order mark at its start too (Windows' Notepad writes one).
     */
    private List<Seed> seeds() throws IOException {
        List<Seed> seeds = new ArrayList<>();
        urls.forEach(url -> seeds.add(new Seed(url, 0)));
        if (seedsFile != null) {
            if (!Files.isReadable(seedsFile)) {
                throw new IllegalArgumentException("--seeds-file: cannot read " + seedsFile);
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(seedsFile);
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException("--seeds-file: " + seedsFile + " is not UTF-8 text");
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = i == 0 ? lines.get(i).replaceFirst("^\uFEFF", "") : lines.get(i);
                String url = COMMENT.matcher(line).replaceFirst("").strip();
                if (!url.isEmpty()) {
                    seeds.add(new Seed(url, i + 1));
                }
            }
        }
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seed URL: give at least one URL or --seeds-file");
        }
        return seeds;
    }

    private void headers(CrawlConfigBuilder b) {
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                // not shown: a header given is as often as not a token or a cookie
                throw new IllegalArgumentException("--header must look like 'Name: value' (the one given is not"
                        + " shown: it may hold a secret)");
            }
            b.header(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
    }

    private static void rules(List<String> specs, String flag, java.util.function.BiConsumer<String, String> add) {
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(flag + " must look like NAME=CSS or NAME=CSS@ATTR, was '" + spec + "'");
            }
            add.accept(spec.substring(0, eq).strip(), spec.substring(eq + 1).strip());
        }
    }

    /** Whole seconds or fractions; a negative or absurd value is the config's to refuse, naming the flag. */
    static Duration seconds(double value) {
        if (Double.isNaN(value) || value > 1e9) {
            return Duration.ofDays(365);
        }
        return Duration.ofMillis(Math.round(value * 1000));
    }
}
