package dev.loomcrawl.server;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.testkit.Http;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A page's main content over the API: {@code "content"} in {@code POST /crawl} and {@code POST /fetch}, and serve's default. */
class ContentApiTest {
    /** Pages of the content corpus (see the crawler module's ContentCorpusTest), served as a site serves them. */
    private static final Path CORPUS = Path.of("..", "crawler", "src", "test", "resources", "content-corpus");

    private WireMockServer site;
    private Database store;
    private Crawler crawler;
    private ApiServer server;
    private Http http;
    private final Contract contract = new Contract();

    @BeforeEach
    void site() throws IOException {
        site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        for (String page : new String[] {"wordpress-news", "qa-site"}) {
            site.stubFor(get(urlPathEqualTo("/" + page)).willReturn(aResponse()
                    .withHeader("Content-Type", "text/html; charset=utf-8")
                    .withBody(Files.readString(CORPUS.resolve(page + ".html")))));
        }
        site.stubFor(get(urlPathEqualTo("/menu-only")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withBody("<html><body><nav><a href='/a'>Home</a> <a href='/b'>About</a></nav></body></html>")));
        site.stubFor(get(urlPathEqualTo("/noindex")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withHeader("X-Robots-Tag", "noindex")
                .withBody(Files.readString(CORPUS.resolve("wordpress-news.html")))));
        site.stubFor(get(urlPathEqualTo("/lone")).willReturn(aResponse().withHeader("Content-Type", "text/html")
                .withBody("<title>a &#xD800; alone</title><p>x</p>")));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (crawler != null) {
            crawler.close();
        }
        if (store != null) {
            store.close();
        }
        site.stop();
        if (http != null) {
            http.close();
            contract.assertHeld();
        }
    }

    private void start(ContentFormat byDefault) {
        store = Database.open("jdbc:h2:mem:content" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        crawler = new Crawler(store);
        server = ApiServer.start(new ApiServer.Settings("127.0.0.1", 0, ExecutionMode.VIRTUAL, 50, 1_000, null, null,
                Set.of(), false, false, byDefault, null), crawler);
        http = Http.local(server.port()).observe(contract::check);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + site.port() + "/" + path;
    }

    @Test
    void fetchGivesTheMainContentAsMarkdownWithThePagesFacts() {
        start(ContentFormat.NONE);
        Http.Response r = http.post("/fetch", "{\"urls\":[\"" + url("wordpress-news") + "\",\"" + url("menu-only")
                + "\"],\"content\":\"markdown\"}");
        assertThat(r.status()).isEqualTo(200);
        JsonNode page = r.json().get("results").get(0);
        String content = page.get("content").asText();
        assertThat(content).startsWith("# City council approves repairs to the old harbour bridge")
                .contains("## Why the cost rose", "- an oak deck and new railings: 14 million")
                .doesNotContain("Leave a Reply", "Recent Posts", "Share this", "Advertisement", "Ferry timetable");
        assertThat(page.get("author").asText()).isEqualTo("Maria Lindqvist");
        assertThat(page.get("published").asText()).isEqualTo("2026-10-14T08:30:00+02:00");
        assertThat(page.get("lang").asText()).isEqualTo("en");
        assertThat(page.get("description").asText()).startsWith("The council voted 31 to 9");
        // A page with nothing but navigation keeps its result: empty content, and why.
        JsonNode menu = r.json().get("results").get(1);
        assertThat(menu.get("outcome").asText()).isEqualTo("ok");
        assertThat(menu.get("content").asText()).isEmpty();
        assertThat(menu.get("detail").asText()).startsWith("no main content");
        // Without "content", no content fields at all: a fetch costs what it cost.
        JsonNode plain = http.post("/fetch", "{\"urls\":[\"" + url("qa-site") + "\"]}").json().get("results").get(0);
        assertThat(plain.has("content")).isFalse();
        assertThat(http.post("/fetch", "{\"urls\":[\"" + url("qa-site") + "\"],\"content\":\"html\"}").json()
                .get("field").asText()).isEqualTo("content");
        // A lone surrogate a page writes is U+FFFD, as in rows (UTF-8 has no bytes for it: the writer made it '?')
        assertThat(http.post("/fetch", "{\"urls\":[\"" + url("lone") + "\"]}").json().get("results").get(0)
                .get("title").asText()).isEqualTo("a \uFFFD alone");
    }

    /** A page that asks not to be indexed says so, and gives its content only to a request that ignores that. */
    @Test
    void fetchKeepsNoContentOfANoindexPageUnlessAskedTo() {
        start(ContentFormat.MARKDOWN);
        JsonNode withheld = http.post("/fetch", "{\"urls\":[\"" + url("noindex") + "\"]}").json().get("results").get(0);
        assertThat(withheld.get("noindex").asBoolean()).isTrue();
        assertThat(withheld.get("content").asText()).isEmpty();
        assertThat(withheld.get("detail").asText()).contains("noindex");
        JsonNode kept = http.post("/fetch", "{\"urls\":[\"" + url("noindex") + "\"],\"ignoreNoindex\":true}").json()
                .get("results").get(0);
        assertThat(kept.get("noindex").asBoolean()).isTrue();
        assertThat(kept.get("content").asText()).startsWith("# City council approves repairs");
        assertThat(http.post("/fetch", "{\"urls\":[\"" + url("noindex") + "\"],\"ignoreNoindex\":1}").json()
                .get("field").asText()).isEqualTo("ignoreNoindex");
    }

    @Test
    void aJobKeepsContentInItsRowsAndServesDefaultIsUsedUnlessTheJobSaysOtherwise() throws Exception {
        start(ContentFormat.TEXT);
        long id = http.post("/crawl", "{\"seeds\":[\"" + url("qa-site") + "\"],\"maxDepth\":0}").json().get("id").asLong();
        JsonNode row = finished(id).get("pages").get(0);
        assertThat(row.get("content").asText()).startsWith("Why does my HashMap iteration order change between runs?")
                .contains("use a LinkedHashMap").doesNotContain("Hot Network Questions", "](", "Add a comment");
        long none = http.post("/crawl", "{\"seeds\":[\"" + url("qa-site") + "\"],\"maxDepth\":0,\"content\":\"none\"}")
                .json().get("id").asLong();
        assertThat(finished(none).get("pages").get(0).has("content")).isFalse();
        // The same content as Markdown files, one per page, in a ZIP archive; a job that kept none says so.
        assertThat(http.get("/crawl/" + id).json().at("/links/markdown").asText())
                .isEqualTo("/crawl/" + id + "/export?format=markdown");
        assertThat(http.get("/crawl/" + none).json().get("links").has("markdown")).isFalse();
        Map<String, String> files = unzipped("/crawl/" + id + "/export?format=markdown");
        assertThat(files).hasSize(1);
        String file = files.values().iterator().next();
        assertThat(files.keySet().iterator().next()).startsWith("127-0-0-1-").endsWith(".md");
        assertThat(file).startsWith("---\nurl: \"" + url("qa-site") + "\"\n").contains("\n---\n\nWhy does my HashMap");
        Http.Response noContent = http.get("/crawl/" + none + "/export?format=markdown");
        assertThat(noContent.status()).isEqualTo(400);
        assertThat(noContent.json().get("message").asText()).contains("kept no content");
        Http.Response bad = http.post("/crawl", "{\"seeds\":[\"" + url("qa-site") + "\"],\"contentMaxChars\":5}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("field").asText()).isEqualTo("contentMaxChars");
    }

    /** The files of a ZIP archive the API serves, by name. */
    private Map<String, String> unzipped(String path) throws IOException {
        Http.Response head = http.get(path); // the contract's check of status and type
        assertThat(head.header("Content-Type")).isEqualTo("application/zip");
        Map<String, String> files = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(http.bytes(path)), StandardCharsets.UTF_8)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                files.put(entry.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    private JsonNode finished(long id) {
        await().atMost(Duration.ofSeconds(30)).until(() -> Set.of("done", "failed", "cancelled")
                .contains(http.get("/crawl/" + id).json().get("status").asText()));
        return http.get("/crawl/" + id + "/pages").json();
    }
}
