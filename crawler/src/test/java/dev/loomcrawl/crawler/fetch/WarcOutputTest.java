package dev.loomcrawl.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomcrawl.crawler.values.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;

/** A job's WARC file across runs: what a run appends, and what a killed run left. */
class WarcOutputTest {
    private static final HttpRequest REQUEST = HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/page")).build();
    private static final HttpHeaders HTML = HttpHeaders.of(Map.of("content-type", List.of("text/html")),
            (name, value) -> true);

    /**
     * A job run again appends to its WARC file, and what it says is whole (what {@code GET /crawl/{id}/warc} serves
     * while it runs) counts its earlier runs' records too.
     */
    @Test
    void aWarcFileOpenedAgainGoesOnAfterItsRecords(@TempDir Path dir) throws Exception {
        Path warc = dir.resolve("crawl.warc.gz");
        for (int run = 1; run <= 2; run++) {
            try (WarcOutput out = WarcOutput.open(warc.toString(), "test")) {
                assertThat(out.wholeBytes()).isEqualTo(Files.size(warc));
                write(out, "run " + run);
                assertThat(out.wholeBytes()).isEqualTo(Files.size(warc));
            }
        }
        assertThat(records(warc)).containsExactly("warcinfo", "request", "response run 1", "request", "response run 2");
    }

    /**
     * A run killed inside a write leaves the start of a pair; the next run cuts it away before it appends, so that a
     * reader, which stops at a broken record, reads every record after it. Cut at several points of the pair: inside
     * the request, inside the response's block, inside its closing bytes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"crawl.warc.gz", "crawl.warc"})
    void aRunAgainCutsTheHalfRecordAKilledRunLeft(String name, @TempDir Path dir) throws Exception {
        Path warc = dir.resolve(name);
        try (WarcOutput out = WarcOutput.open(warc.toString(), "test")) {
            write(out, "kept");
        }
        long whole = Files.size(warc);
        try (WarcOutput out = WarcOutput.open(warc.toString(), "test")) {
            write(out, "x".repeat(100_000));
        }
        byte[] killed = Files.readAllBytes(warc);
        for (long cut : new long[] {whole + 100, (whole + killed.length) / 2, killed.length - 2}) {
            Files.write(warc, Arrays.copyOf(killed, (int) cut));
            try (WarcOutput out = WarcOutput.open(warc.toString(), "test")) {
                assertThat(out.wholeBytes()).as("cut at %d", cut).isEqualTo(whole);
                write(out, "after");
            }
            assertThat(records(warc)).as("cut at %d", cut)
                    .containsExactly("warcinfo", "request", "response kept", "request", "response after");
            Files.write(warc, Arrays.copyOf(killed, (int) whole));
        }
    }

    /**
     * Only the end is read and cut: a break in the middle of a file (another tool's, or an earlier version's) is
     * left as it is, and the whole records after it with it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"crawl.warc.gz", "crawl.warc"})
    void aBreakInsideTheFileIsLeftWithTheRecordsAfterIt(String name, @TempDir Path dir) throws Exception {
        Path one = dir.resolve("one-" + name);
        try (WarcOutput out = WarcOutput.open(one.toString(), "test")) {
            write(out, "x".repeat(10_000));
        }
        byte[] whole = Files.readAllBytes(one);
        Path warc = dir.resolve(name);
        Files.write(warc, whole);
        Files.write(warc, Arrays.copyOf(whole, whole.length / 2), StandardOpenOption.APPEND); // a record cut short
        Files.write(warc, whole, StandardOpenOption.APPEND);
        long size = Files.size(warc);
        try (WarcOutput out = WarcOutput.open(warc.toString(), "test")) {
            assertThat(out.wholeBytes()).isEqualTo(size);
        }
        assertThat(Files.size(warc)).isEqualTo(size);
    }

    /** A file that holds no WARC record is not appended to, nor cut: the job does not start, and says why. */
    @Test
    void aFileThatIsNotWarcIsLeftAsItIs(@TempDir Path dir) throws Exception {
        Path notes = Files.writeString(dir.resolve("notes.warc"), "my notes, not a WARC file\n");
        assertThatThrownBy(() -> WarcOutput.open(notes.toString(), "test")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("warcFile holds no whole WARC record");
        assertThat(Files.readString(notes)).isEqualTo("my notes, not a WARC file\n");
    }

    private static void write(WarcOutput out, String body) {
        out.write(REQUEST, 200, HTML, body.getBytes(StandardCharsets.UTF_8), false, Instant.now());
    }

    /** Each record's type, a response's with its body: the reader throws on a broken record. */
    private static List<String> records(Path warc) throws IOException {
        List<String> records = new ArrayList<>();
        try (WarcReader reader = new WarcReader(warc)) {
            for (WarcRecord record : reader) {
                records.add(record instanceof WarcResponse response
                        ? "response " + new String(response.http().body().stream().readAllBytes(), StandardCharsets.UTF_8)
                        : record.type());
            }
        }
        return records;
    }
}
