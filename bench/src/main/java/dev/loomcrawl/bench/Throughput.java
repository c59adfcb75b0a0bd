package dev.loomcrawl.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fetches stored per second through one crawl, from its rows' own times: in each tenth of the span from its
 * first fetch to its last, and the last four tenths' rate over the four before them (tenths 2–5 and 7–10,
 * leaving out the first, where robots.txt and the seeds are on the wire). Under 1: the crawl slowed down
 * as it went, as one whose heap or queues grow does.
 */
record Throughput(double spanSeconds, long fetches, List<Double> pagesPerSecondByTenth, double lateOverEarly) {
    static final int TENTHS = 10;
    static final Throughput NONE = new Throughput(0, 0, List.of(), 0);

    static Throughput of(List<Long> fetchedAtMicros) {
        if (fetchedAtMicros.size() < 2) {
            return NONE;
        }
        long first = fetchedAtMicros.stream().mapToLong(Long::longValue).min().orElseThrow();
        long last = fetchedAtMicros.stream().mapToLong(Long::longValue).max().orElseThrow();
        long span = Math.max(1, last - first);
        long[] counts = new long[TENTHS];
        for (long at : fetchedAtMicros) {
            counts[(int) Math.min(TENTHS - 1, (at - first) * TENTHS / span)]++;
        }
        double tenthSeconds = span / 1e6 / TENTHS;
        List<Double> rates = Arrays.stream(counts).mapToDouble(c -> c / tenthSeconds).boxed().toList();
        double early = counts[1] + counts[2] + counts[3] + counts[4];
        double late = counts[6] + counts[7] + counts[8] + counts[9];
        return new Throughput(span / 1e6, fetchedAtMicros.size(), rates, early == 0 ? 0 : late / early);
    }

    /** The crawl's fetches through its time, read from the database it left (rows with a request made). */
    static Throughput read(Path db) {
        String url = "jdbc:h2:" + db.toAbsolutePath() + ";ACCESS_MODE_DATA=r";
        List<Long> times = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement();
                ResultSet rows = st.executeQuery("SELECT fetched_at FROM pages WHERE fetch_ms > 0")) {
            while (rows.next()) {
                Instant at = rows.getObject(1, OffsetDateTime.class).toInstant();
                times.add(at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000);
            }
        } catch (SQLException e) {
            return Throughput.NONE; // no database (the crawl failed before it made one): the other figures stand
        }
        return Throughput.of(times);
    }
}
