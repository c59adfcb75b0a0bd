package dev.loomcrawl.crawler;

import static dev.loomcrawl.crawler.values.Export.endLines;
import static dev.loomcrawl.crawler.values.Export.sequence;

import com.fasterxml.jackson.databind.SequenceWriter;
import dev.loomcrawl.crawler.store.NearDuplicateGroups;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.Export;
import dev.loomcrawl.crawler.values.Export.Format;
import dev.loomcrawl.crawler.values.KeyAudit;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a job found beyond its rows, exported as JSON Lines or CSV as {@link Export} writes rows: its change events
 * ({@code export --changes}), its groups of near-duplicate pages ({@code --near-duplicates}) and its politeness
 * audit ({@code --politeness}).
 */
final class FindingsExport {
    private FindingsExport() {}

    private static final List<String> CHANGE_COLUMNS = List.of("id", "job", "url", "kind", "at", "status", "distance",
            "severity", "target");

    /** A job's change events in the order they were stored. Returns how many. */
    static long changes(PageStore store, long jobId, Format format, OutputStream out) throws IOException {
        long[] n = {0};
        try (SequenceWriter rows = sequence(CHANGE_COLUMNS, format, out)) {
            store.changes().forEach(jobId, change -> {
                try {
                    rows.write(Export.rowOf(change));
                    n[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        endLines(format, n[0], out);
        return n[0];
    }

    private static final List<String> NEAR_COLUMNS = List.of("group", "size", "url", "simhash", "distance", "title");

    /**
     * Groups of a job's stored pages whose SimHashes are within 3 bits of each other (print versions, session-id
     * variants, mirrors): one row per page of a group of two or more, groups in the order their first page was
     * stored, {@code distance} from the group's first page. Returns how many rows.
     */
    static long nearDuplicates(PageStore store, long jobId, Format format, OutputStream out) throws IOException {
        List<List<NearDuplicateGroups.Page>> groups = store.nearDuplicateGroups(jobId);
        long n = 0;
        try (SequenceWriter rows = sequence(NEAR_COLUMNS, format, out)) {
            int group = 0;
            for (List<NearDuplicateGroups.Page> pages : groups) {
                group++;
                long first = pages.getFirst().simhash();
                for (NearDuplicateGroups.Page p : pages) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("group", group);
                    row.put("size", pages.size());
                    row.put("url", p.url());
                    row.put("simhash", HexFormat.of().toHexDigits(p.simhash()));
                    row.put("distance", Long.bitCount(first ^ p.simhash()));
                    row.put("title", p.title());
                    rows.write(row);
                    n++;
                }
            }
        }
        endLines(format, n, out);
        return n;
    }

    private static final List<String> POLITENESS_COLUMNS = List.of("key", "requests", "answered", "errors",
            "maxInFlight", "shortestGapMillis", "crawlDelayMillis", "retryAfterWindows", "retryAfterSeconds",
            "requestsInRetryAfter", "robotsDisallowed", "requestsDisallowed", "firstRequest", "lastRequest");

    /** A job's politeness audit as stored ({@link PolitenessTable#audit}): one row per key. Returns how many rows. */
    static long politeness(PageStore store, long jobId, Format format, OutputStream out) throws IOException {
        List<KeyAudit> keys = store.politeness().audit(jobId);
        try (SequenceWriter rows = sequence(POLITENESS_COLUMNS, format, out)) {
            for (KeyAudit k : keys) {
                Object[] values = {k.key(), k.requests(), k.answered(), k.errors(), k.maxInFlight(), k.shortestGapMillis(),
                        k.crawlDelayMillis(), k.retryAfterWindows(), k.retryAfterSeconds(), k.requestsInRetryAfter(),
                        k.robotsDisallowed(), k.requestsDisallowed(), text(k.firstRequest()), text(k.lastRequest())};
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 0; i < values.length; i++) {
                    row.put(POLITENESS_COLUMNS.get(i), values[i]);
                }
                rows.write(row);
            }
        }
        endLines(format, keys.size(), out);
        return keys.size();
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }
}
