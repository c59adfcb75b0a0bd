package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.JobSummary;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.testkit.PinningWatch;
import dev.loomcrawl.testkit.TestSite;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;

/** What a crawl gives back: extracted fields, a handler's results, WARC files, rows and the link graph. */
@ExtendWith(PinningWatch.class)
class DataOutTest {
    private static final AtomicLong DB = new AtomicLong();
    private static final ObjectMapper JSON = new ObjectMapper();

    private PageStore store;
    private Crawler crawler;
    private TestSite site;

    @BeforeEach
    void open() {
        store = PageStore.open("jdbc:h2:mem:dataout" + DB.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
        site = new TestSite();
        site.stub("/", TestSite.html("""
                        <html><head><title>Shop</title></head><body>
                        <h1 class="name">Blue kettle</h1>
                        <span class="price">12.50</span><span class="price">9.99</span><span class="price"> </span>
                        <a href="/item/1">one</a> <a href="/item/2" title="second">two</a>
                        <a href="https://elsewhere.example/x">away</a>
                        </body></html>"""))
                .stub("/item/1", TestSite.html("<title>Item 1</title><h1 class=name>Kettle 1</h1>"))
                .stub("/item/2", TestSite.html("<title>Item 2</title><p>no name here</p>"));
    }

    @AfterEach
    void close() {
        crawler.close();
        store.close();
        site.close();
    }

    private Map<String, PageRecord> byPath(long jobId) {
        return store.pages(jobId, 0, 1_000, null).stream()
                .collect(Collectors.toMap(p -> p.url().replace(site.url(""), ""), Function.identity()));
    }

    @Test
    void extractionRulesTakeTheFirstMatchAnAttributeOrEveryMatch() throws Exception {
        JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/"))
                .extract("h", "title").extract("name", "h1.name").extract("second", "a[title]@title")
                .extract("link", "a@href").extract("abs", "a@abs:href")
                .extractAll("prices", ".price").extractAll("links", "a@abs:href").build()).awaitSummary();

        Map<String, PageRecord> pages = byPath(summary.jobId());
        Map<String, Object> root = pages.get("/").fields();
        assertThat(root).containsEntry("h", "Shop").containsEntry("name", "Blue kettle")
                .containsEntry("second", "second").containsEntry("link", "/item/1")
                .containsEntry("abs", site.url("/item/1"))
                .containsEntry("prices", List.of("12.50", "9.99")) // blank matches are left out
                .containsEntry("links", List.of(site.url("/item/1"), site.url("/item/2"), "https://elsewhere.example/x"));
        // No match: a first-match field is absent (not an empty string); an every-match field is empty.
        assertThat(pages.get("/item/2").fields()).containsEntry("h", "Item 2").doesNotContainKey("name")
                .containsEntry("prices", List.of());
        assertThat(pages.get("/item/1").fields()).containsEntry("name", "Kettle 1");
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aPageHandlerRunsOnTheTasksThreadAndItsResultIsStored(ExecutionMode mode) throws Exception {
        Map<String, String> threads = new ConcurrentHashMap<>();
        CrawlJob job = crawler.start(CrawlConfig.builder().seed(site.url("/")).mode(mode).poolSize(4)
                .extract("h", "title").build(), page -> {
                    threads.put(page.url(), Thread.currentThread().getName() + (Thread.currentThread().isVirtual() ? " virtual" : ""));
                    if (page.url().endsWith("/item/2")) {
                        throw new IllegalStateException("no name on this page");
                    }
                    return Map.of("h", "from the handler", "status", page.status(), "depth", page.depth(),
                            "type", page.headers().get("content-type").getFirst(),
                            "names", page.document().select("h1").eachText());
                });
        JobSummary summary = job.awaitSummary();

        assertThat(threads).hasSize(3);
        assertThat(threads.values()).allSatisfy(name -> assertThat(name)
                .matches(mode == ExecutionMode.VIRTUAL ? "crawl-vt-\\d+ virtual" : "crawl-pool-\\d+"));
        Map<String, PageRecord> pages = byPath(summary.jobId());
        assertThat(pages.get("/").fields()).containsEntry("h", "from the handler").containsEntry("status", 200)
                .containsEntry("depth", 0).containsEntry("type", "text/html; charset=utf-8")
                .containsEntry("names", List.of("Blue kettle"));
        // A handler that throws does not fail the page: it is stored, with the exception named.
        assertThat(pages.get("/item/2").outcome()).isEqualTo(Outcome.OK);
        assertThat(pages.get("/item/2").detail()).contains("page handler failed").contains("no name on this page");
        assertThat(pages.get("/item/2").fields()).containsEntry("h", "Item 2"); // the rules' fields stay
        assertThat(summary.pages()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"crawl.warc", "crawl.warc.gz"})
    void everyResponseIsAWarcRequestAndResponseRecordThatWarcToolsRead(String name, @TempDir Path dir)
            throws Exception {
        Path warc = dir.resolve(name);
        site.stub("/gone", TestSite.html("nothing").withStatus(404));
        site.stub("/item/1", TestSite.html("<title>Item 1</title><a href=/gone>gone</a>"));
        JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/"))
                .warcFile(warc.toString()).build()).awaitSummary();

        Map<String, PageRecord> pages = byPath(summary.jobId());
        Map<String, String> responses = new HashMap<>();
        List<String> requests = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord record : reader) {
                types.add(record.type());
                if (record instanceof WarcResponse response) {
                    assertThat(response.contentType()).isEqualTo(MediaType.HTTP_RESPONSE);
                    responses.put(response.target(), response.http().status() + " "
                            + new String(response.http().bodyDecoded().stream().readAllBytes(), StandardCharsets.UTF_8));
                } else if (record instanceof WarcRequest request) {
                    requests.add(request.target());
                    assertThat(request.http().headers().first("User-Agent")).hasValueSatisfying(ua -> assertThat(ua).startsWith("loomcrawl/"));
                }
            }
        }
        assertThat(types.getFirst()).isEqualTo("warcinfo");
        // Recorded as received: the farm gzips, and the record keeps the Content-Encoding WARC tools expect.
        // One request and one response per stored URL that got an answer; robots.txt is no page.
        assertThat(responses.keySet()).containsExactlyInAnyOrderElementsOf(pages.values().stream().map(PageRecord::url).toList());
        assertThat(requests).containsExactlyInAnyOrderElementsOf(responses.keySet());
        assertThat(responses.get(site.url("/"))).startsWith("200 ").contains("Blue kettle");
        assertThat(responses.get(site.url("/gone"))).isEqualTo("404 nothing");

        // Every record WARC/1.1 like its warcinfo, with the digests deduplicating and replay tools key on
        int digested = 0;
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord record : reader) {
                assertThat(record.version()).isEqualTo(org.netpreserve.jwarc.MessageVersion.WARC_1_1);
                if (record instanceof WarcResponse || record instanceof WarcRequest) {
                    byte[] block = record.body().stream().readAllBytes();
                    assertThat(record.blockDigest()).hasValueSatisfying(d -> assertThat(d.hex()).isEqualTo(sha1(block).hex()));
                    if (record instanceof WarcResponse response) {
                        byte[] payload = java.util.Arrays.copyOfRange(block, headEnd(block), block.length);
                        assertThat(response.payloadDigest()).hasValueSatisfying(d -> assertThat(d.hex()).isEqualTo(sha1(payload).hex()));
                        digested++;
                    }
                }
            }
        }
        assertThat(digested).isEqualTo(responses.size());
    }

    /**
     * A response whose body could not be had whole is recorded with what came and says why it holds less than the
     * server sent: a replay of an empty 200 record would serve an empty page as the site's answer.
     */
    @Test
    void aResponseWhoseBodyCouldNotBeHadWholeSaysSoInItsWarcRecord(@TempDir Path dir) throws Exception {
        Path warc = dir.resolve("crawl.warc");
        site.stub("/", TestSite.html("<a href=/dribble>d</a><a href=/big>b</a><a href=/bad-gzip>g</a>"
                + "<a href=/big-zipped>z</a>"));
        site.stub("/dribble", TestSite.html("x".repeat(2_000)).withChunkedDribbleDelay(20, 4_000));
        site.stub("/big", TestSite.html("x".repeat(20_000)).withGzipDisabled(true)); // its bytes over the limit
        site.stub("/big-zipped", TestSite.html("y".repeat(20_000))); // gzip: 52 bytes that decode to 20,000
        site.stub("/bad-gzip", TestSite.html("not gzip at all").withHeader("Content-Encoding", "gzip"));
        JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/")).maxRetries(0).maxBodyBytes(10_000)
                .fetchDeadline(Duration.ofSeconds(1)).warcFile(warc.toString()).build()).awaitSummary();

        Map<String, String> truncated = new HashMap<>();
        Map<String, String> bodies = new HashMap<>();
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord record : reader) {
                if (record instanceof WarcResponse response) {
                    String path = java.net.URI.create(response.target()).getPath();
                    truncated.put(path, record.headers().first("WARC-Truncated").orElse("-"));
                    bodies.put(path, new String(response.http().body().stream().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        Map<String, PageRecord> pages = byPath(summary.jobId());
        assertThat(pages.get("/dribble").failure()).isEqualTo("timeout");
        assertThat(truncated).containsEntry("/", "-").containsEntry("/dribble", "time").containsEntry("/big", "length")
                .containsEntry("/bad-gzip", "-");
        assertThat(bodies.get("/bad-gzip")).isEqualTo("not gzip at all"); // read whole: recorded as it came
        // an HTML page cut at the limit is kept; its record holds the bytes received, cut there too or whole
        assertThat(bodies.get("/big")).hasSize(10_000);
        assertThat(pages.get("/big").ok()).isTrue();
        assertThat(truncated).containsEntry("/big-zipped", "-");
        assertThat(pages.get("/big-zipped").detail()).isEqualTo("cut at 10000 bytes: the body limit");
    }

    private static org.netpreserve.jwarc.WarcDigest sha1(byte[] bytes) {
        try {
            return new org.netpreserve.jwarc.WarcDigest("sha1", java.security.MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Where an HTTP message's body starts: after its blank line. */
    private static int headEnd(byte[] message) {
        for (int i = 3; i < message.length; i++) {
            if (message[i - 3] == '\r' && message[i - 2] == '\n' && message[i - 1] == '\r' && message[i] == '\n') {
                return i + 1;
            }
        }
        throw new AssertionError("no end of headers");
    }

    @Test
    void rowsComeOutAsJsonLinesAndCsvWithEveryColumnAndTheLinkGraph() throws Exception {
        JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/")).extract("h", "title").build())
                .awaitSummary();
        long id = summary.jobId();

        ByteArrayOutputStream jsonl = new ByteArrayOutputStream();
        assertThat(Database.of(store).exportJob(id, Export.Format.JSONL, null, jsonl)).isEqualTo(3);
        List<JsonNode> rows = new ArrayList<>();
        try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(jsonl.toByteArray())) {
            it.forEachRemaining(rows::add);
        }
        assertThat(rows).hasSize(3);
        JsonNode root = rows.stream().filter(r -> r.get("url").asText().equals(site.url("/"))).findFirst().orElseThrow();
        assertThat(root.properties().stream().map(Map.Entry::getKey).toList()).containsExactly("url", "depth", "status",
                "outcome", "contentType", "title", "bytes", "fetchMs", "fetchedAt", "failure", "detail", "referrer",
                "outlinks", "fields", "canonical", "noindex", "attempts", "etag", "lastModified", "digest", "simhash");
        assertThat(root.get("outlinks")).hasSize(3); // out of scope included, as found
        assertThat(root.get("digest").asText()).hasSize(64); // SHA-256 of the body
        assertThat(root.get("simhash").asText()).hasSize(16); // 64 bits in hex
        assertThat(root.get("fields").get("h").asText()).isEqualTo("Shop");
        JsonNode item = rows.stream().filter(r -> r.get("url").asText().endsWith("/item/2")).findFirst().orElseThrow();
        assertThat(item.get("referrer").asText()).isEqualTo(site.url("/"));
        assertThat(item.get("depth").asInt()).isEqualTo(1);

        ByteArrayOutputStream csv = new ByteArrayOutputStream();
        Database.of(store).exportJob(id, Export.Format.CSV, null, csv);
        List<Map<String, String>> csvRows = new ArrayList<>();
        try (MappingIterator<Map<String, String>> it = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(csv.toByteArray())) {
            it.forEachRemaining(csvRows::add);
        }
        assertThat(csvRows).hasSize(3);
        Map<String, String> csvRoot = csvRows.stream().filter(r -> r.get("url").equals(site.url("/"))).findFirst().orElseThrow();
        assertThat(csvRoot.get("title")).isEqualTo("Shop");
        assertThat(csvRoot.get("outlinks").split(" ")).hasSize(3);
        assertThat(JSON.readTree(csvRoot.get("fields")).get("h").asText()).isEqualTo("Shop");

        ByteArrayOutputStream links = new ByteArrayOutputStream();
        assertThat(Database.of(store).exportLinks(id, Export.Format.JSONL, links)).isEqualTo(3);
        assertThat(links.toString(StandardCharsets.UTF_8)).contains(
                "{\"from\":\"" + site.url("/") + "\",\"to\":\"https://elsewhere.example/x\"}");
    }

    /**
     * A page's {@code &#xD800;} (jsoup keeps it; the HTML Standard reads U+FFFD) is U+FFFD in every row and file:
     * UTF-8 has no bytes for a lone surrogate, and the CSV export failed whole on one.
     */
    @Test
    void aLoneSurrogateAPageWritesIsTheReplacementCharacterInEveryFormat(@TempDir Path dir) throws Exception {
        site.stub("/odd", TestSite.html("""
                <html><head><title>Lone &#xD800; in the title</title><meta name="description" content="and &#xDFFF;">
                </head><body><article><h1>Odd</h1><p>A lone &#xD83D; here and a pair &#x1F600; there, with words
                enough for the paragraph to be the page's content, which a reader would want to keep.</p>
                </article></body></html>"""));
        JobSummary summary = crawler.start(CrawlConfig.builder().seed(site.url("/odd")).maxDepth(0)
                .extract("t", "title").content(dev.loomcrawl.crawler.values.ContentFormat.MARKDOWN).build())
                .awaitSummary();
        long id = summary.jobId();

        PageRecord page = byPath(id).get("/odd");
        assertThat(page.title()).isEqualTo("Lone \uFFFD in the title");
        assertThat(page.fields()).containsEntry("t", "Lone \uFFFD in the title");
        assertThat(page.content().description()).isEqualTo("and \uFFFD");
        assertThat(page.content().text()).contains("A lone \uFFFD here and a pair \uD83D\uDE00 there");

        for (Export.Format format : Export.Format.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThat(Database.of(store).exportJob(id, format, null, out)).isEqualTo(1);
            java.nio.charset.StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(out.toByteArray()));
            Map<String, Object> row;
            try (MappingIterator<Map<String, Object>> it = (format == Export.Format.CSV
                    ? new CsvMapper().readerForMapOf(Object.class).with(CsvSchema.emptySchema().withHeader())
                    : JSON.readerForMapOf(Object.class)).readValues(out.toByteArray())) {
                row = it.next();
            }
            assertThat(row.get("title")).as(format.name()).isEqualTo("Lone \uFFFD in the title");
            assertThat((String) row.get("content")).as(format.name()).contains("A lone \uFFFD here and a pair \uD83D\uDE00 there");
        }
        assertThat(Database.of(store).writeMarkdown(id, dir, 10_000)).isEqualTo(1);
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(java.nio.file.Files.readString(files.findFirst().orElseThrow())).contains("A lone \uFFFD here");
        }
    }
}
