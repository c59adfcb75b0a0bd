package dev.loomcrawl.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.loomcrawl.cli.CrawlCommandTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawl --content} and {@code export --format=markdown} as a user runs them, on pages of the content corpus
 * (the crawler module's ContentCorpusTest) served by WireMock.
 */
class ContentCommandsTest {
    private static final Path CORPUS = Path.of("..", "crawler", "src", "test", "resources", "content-corpus");
    private static final List<String> PAGES = List.of("medium-essay", "mkdocs-guide", "phpbb-forum", "regional-de");
    private static WireMockServer site;

    @BeforeAll
    static void site() throws Exception {
        site = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        site.start();
        for (String page : PAGES) {
            site.stubFor(get(urlPathEqualTo("/" + page)).willReturn(aResponse()
                    .withHeader("Content-Type", "text/html; charset=utf-8")
                    .withBody(Files.readString(CORPUS.resolve(page + ".html")))));
        }
    }

    @AfterAll
    static void stop() {
        site.stop();
    }

    private static String[] crawl(Path dir, String... more) throws Exception {
        Path seeds = dir.resolve("seeds.txt");
        Files.write(seeds, PAGES.stream().map(p -> "http://127.0.0.1:" + site.port() + "/" + p).toList());
        List<String> args = new ArrayList<>(List.of("crawl", "--db=jdbc:h2:" + dir.resolve("db"), "--max-depth=0",
                "--seeds-file=" + seeds));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void markdownAndTextRowsHoldTheSameWordsAndExportWritesOneFilePerPage(@TempDir Path dir) throws Exception {
        Result markdown = CrawlCommandTest.run(crawl(dir, "--content=markdown", "--output=" + dir.resolve("md.jsonl")));
        assertThat(markdown.exit()).as(markdown.err()).isZero();
        Result text = CrawlCommandTest.run(crawl(dir, "--content=text", "--output=" + dir.resolve("text.jsonl")));
        assertThat(text.exit()).as(text.err()).isZero();
        List<JsonNode> mdRows = rows(dir.resolve("md.jsonl"));
        List<JsonNode> textRows = rows(dir.resolve("text.jsonl"));
        assertThat(mdRows).hasSize(PAGES.size());
        for (JsonNode row : mdRows) {
            JsonNode same = textRows.stream().filter(r -> r.get("url").equals(row.get("url"))).findFirst().orElseThrow();
            String withoutTargets = row.get("content").asText().replaceAll("\\]\\([^)]*\\)", "]")
                    .replaceAll("(?m)^```\\S+$", "```"); // link targets and code languages are marks, not words
            assertThat(words(withoutTargets))
                    .as(row.get("url").asText()).isEqualTo(words(same.get("content").asText()));
        }
        JsonNode guide = byPage(mdRows, "mkdocs-guide");
        assertThat(guide.get("content").asText()).contains("```bash\ncurl -LO", "| Platform | Configuration file |")
                .doesNotContain("Edit this page", "Table of contents", "Made with Material");
        JsonNode german = byPage(textRows, "regional-de");
        assertThat(german.get("lang").asText()).isEqualTo("de");
        assertThat(german.get("author").asText()).isEqualTo("Katrin Vogel");
        assertThat(german.get("content").asText()).contains("Die Stadt will bis 2029").doesNotContain("Alle akzeptieren",
                "Impressum", "#", "**");

        Path out = dir.resolve("pages");
        Result export = CrawlCommandTest.run("export", "1", "--db=jdbc:h2:" + dir.resolve("db"), "--format=markdown",
                "--output=" + out);
        assertThat(export.exit()).as(export.err()).isZero();
        List<Path> files;
        try (Stream<Path> listed = Files.list(out)) {
            files = listed.sorted().toList();
        }
        assertThat(files).hasSize(PAGES.size());
        assertThat(files).allSatisfy(f -> assertThat(f.getFileName().toString()).matches("127-0-0-1-\\d+-[a-z0-9-]+-[0-9a-f]{8}\\.md"));
        String essay = Files.readString(files.stream().filter(f -> f.toString().contains("medium-essay")).findFirst().orElseThrow());
        assertThat(essay).startsWith("---\nurl: \"http://127.0.0.1:" + site.port() + "/medium-essay\"\ntitle: \"What I learned")
                .contains("\nfetchedAt: \"", "\nauthor: \"Tom Becker\"\n", "\n---\n\n# What I learned from a year of baking")
                .contains("*sour enough to strip paint*").doesNotContain("Recommended from Medium");
        // Named from the URL: a second export writes the same files.
        CrawlCommandTest.run("export", "1", "--db=jdbc:h2:" + dir.resolve("db"), "--format=markdown", "--output=" + out);
        try (Stream<Path> again = Files.list(out)) {
            assertThat(again.sorted().toList()).isEqualTo(files);
        }
        // The cap: cut where asked, and said.
        Result capped = CrawlCommandTest.run("export", "1", "--db=jdbc:h2:" + dir.resolve("db"), "--content-max-chars=300");
        assertThat(capped.out()).contains("[content cut at ");
    }

    @Test
    void exportAsMarkdownNeedsAJobWithContentAndADirectory(@TempDir Path dir) throws Exception {
        assertThat(CrawlCommandTest.run(crawl(dir)).exit()).isZero();
        Result noContent = CrawlCommandTest.run("export", "1", "--db=jdbc:h2:" + dir.resolve("db"), "--format=markdown",
                "--output=" + dir.resolve("md"));
        assertThat(noContent.exit()).isEqualTo(2);
        assertThat(noContent.err()).startsWith("loomcrawl: job 1 kept no content: crawl with --content=markdown");
        Result noDir = CrawlCommandTest.run("export", "1", "--db=jdbc:h2:" + dir.resolve("db"), "--format=markdown");
        assertThat(noDir.exit()).isEqualTo(2);
        assertThat(noDir.err().strip().lines()).hasSize(1);
    }

    private static JsonNode byPage(List<JsonNode> rows, String page) {
        return rows.stream().filter(r -> r.get("url").asText().endsWith("/" + page)).findFirst().orElseThrow();
    }

    private static List<JsonNode> rows(Path file) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            rows.add(json.readTree(line));
        }
        return rows;
    }

    private static List<String> words(String s) {
        List<String> words = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[\\p{L}\\p{N}]+").matcher(s);
        while (m.find()) {
            words.add(m.group().toLowerCase(java.util.Locale.ROOT));
        }
        return words;
    }
}
