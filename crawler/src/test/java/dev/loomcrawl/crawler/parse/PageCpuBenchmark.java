package dev.loomcrawl.crawler.parse;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlUrl;
import dev.loomcrawl.crawler.values.PageRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU a crawler spends on one page once the bytes are in: Jsoup parse, link resolution and
 * normalisation, and storage (the writer's share included, by flushing). A page like the farm's: 4 KiB of
 * text and ten links. Run: {@code ./mvnw -q -pl crawler -Pjmh test-compile exec:exec}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PageCpuBenchmark {
    private static final AtomicLong DB = new AtomicLong();
    private static final int STORE_BATCH = 512;

    private byte[] page;
    private String base;
    private PageStore store;
    private long url;

    @Setup(Level.Trial)
    public void setUp() {
        base = "http://h7.loomcrawl.test:8080/page/12";
        StringBuilder html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>h7 page 12"
                + "</title></head><body><h1>h7 page 12</h1><ul>");
        for (int i = 0; i < 9; i++) {
            html.append("<li><a href=\"/page/").append(49 + i).append("\">/page/").append(49 + i).append("</a></li>");
        }
        html.append("<li><a href=\"http://h3.loomcrawl.test:8080/page/5\">x</a></li></ul><p>");
        while (html.length() < 4_600) {
            html.append("loom weave thread fiber carrier park mount yield stack heap frontier crawl fetch parse ");
        }
        page = html.append("</p></body></html>").toString().getBytes(StandardCharsets.UTF_8);
        store = PageStore.open("jdbc:h2:mem:jmh" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
    }

    @Benchmark
    public PageParser.Parsed parse() {
        return PageParser.parseHere(page, "utf-8", base, "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE);
    }

    /** Parse, every link resolved as a browser resolves it. */
    @Benchmark
    public List<CrawlUrl> parseAndNormaliseLinks() {
        PageParser.Parsed parsed = PageParser.parseHere(page, "utf-8", base, "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE);
        List<CrawlUrl> links = new ArrayList<>(parsed.links().size());
        for (PageParser.Link link : parsed.links()) {
            links.add(link.url());
        }
        return links;
    }

    /** Per page: parse, normalise, store; every 512th page waits for the writer, so its CPU counts too. */
    @Benchmark
    public List<CrawlUrl> wholePagePath() throws InterruptedException {
        List<CrawlUrl> links = parseAndNormaliseLinks();
        long n = url++;
        store.saveWithLinks(new PageRecord(1, base + "?n=" + n, 2, 200, "text/html", "h7 page 12", page.length, 300.0,
                1, null, null, Instant.now(), "crawl-vt-1", base, links.stream().map(CrawlUrl::url).toList(), null, null,
                null, 310.0, null, null, null, null, null, false), List.of(), List.of());
        if (n % STORE_BATCH == 0) {
            store.flush();
        }
        return links;
    }
}
