package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.mocksites.FarmConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link FreshnessBench}'s figures: the change events a continuous job stored, held against the farm's log of
 * the changes it made (one line each: URL, kind, epoch millis), and the server's CPU over the run.
 */
final class FreshnessScore {
    /** A change this close before a visit may have come after the visit's request left: not held against it. */
    private static final long IN_FLIGHT_MILLIS = 1_000;

    private FreshnessScore() {}

    /** A change the farm made: to which page, how, when. */
    private record Made(String url, String kind, long at) {}

    static FreshnessBench.Result score(FarmConfig farm, long id, Database database, String madeText, List<FreshnessBench.Sample> samples,
            int firstPass, double firstPassSeconds, double idleCpuPerSecond, JsonNode counters, Duration length,
            Duration min, Duration max) {
        Map<String, List<Made>> madeByUrl = new HashMap<>();
        for (String line : madeText.lines().toList()) {
            String[] f = line.split(" ");
            madeByUrl.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new Made(f[0], f[1], Long.parseLong(f[2])));
        }
        Map<String, List<Change>> events = new HashMap<>();
        Map<String, Long> byKind = new LinkedHashMap<>();
        database.forEachChange(id, c -> {
            events.computeIfAbsent(c.url(), k -> new ArrayList<>()).add(c);
            byKind.merge(c.kind().label(), 1L, Long::sum);
        });

        Recall recall = recall(madeByUrl, events);
        Precision precision = precision(madeByUrl, events);
        double[] perPage = visitsPerPage(madeByUrl, events);
        FreshnessBench.Sample start = samples.getFirst();
        FreshnessBench.Sample first = firstPass >= 0 ? samples.get(firstPass) : samples.getLast();
        FreshnessBench.Sample last = samples.getLast();
        double firstCpuMs = (first.serveCpuSeconds() - start.serveCpuSeconds()) * 1000 / Math.max(1, first.farmRequests());
        double revisitCpuMs = (last.serveCpuSeconds() - first.serveCpuSeconds()) * 1000
                / Math.max(1, last.farmRequests() - first.farmRequests());
        // The same, less what the server spends anyway in that time (its idle rate, measured first).
        double firstBeyondMs = ((first.serveCpuSeconds() - start.serveCpuSeconds())
                - idleCpuPerSecond * (first.seconds() - start.seconds())) * 1000 / Math.max(1, first.farmRequests());
        double revisitBeyondMs = ((last.serveCpuSeconds() - first.serveCpuSeconds())
                - idleCpuPerSecond * (last.seconds() - first.seconds())) * 1000
                / Math.max(1, last.farmRequests() - first.farmRequests());
        double staticPer = perPage[0];
        double hotPer = perPage[1];
        return new FreshnessBench.Result(farm.hosts() + " hosts x " + farm.pagesPerHost() + " pages", length.toSeconds() / 60.0,
                min + " to " + max, madeByUrl.values().stream().mapToLong(List::size).sum(), recall.assessed(),
                ratio(recall.reported(), recall.assessed()), precision.changed(), ratio(precision.right(), precision.changed()),
                ratio(precision.severityRight(), precision.right()), precision.unchanged(),
                ratio(precision.notModified(), precision.unchanged()), round(staticPer), round(hotPer), round(staticPer / Math.max(1e-9, hotPer)),
                round(firstPassSeconds), round(idleCpuPerSecond), round(firstCpuMs), round(revisitCpuMs),
                round(revisitCpuMs / firstCpuMs), round(firstBeyondMs), round(revisitBeyondMs),
                round(revisitBeyondMs / firstBeyondMs),
                round(first.rssMb()), round(last.rssMb()), counters.get("maxInFlightPerHost").asInt(),
                counters.get("retryAfterViolations").asLong(), byKind, samples);
    }

    /** Changes made that a later visit could see, and of them those it reported. */
    private record Recall(long assessed, long reported) {}

    /** Recall: each change made before the page's last visit must be reported by the first visit after it. */
    private static Recall recall(Map<String, List<Made>> madeByUrl, Map<String, List<Change>> events) {
        long assessed = 0;
        long reported = 0;
        for (Map.Entry<String, List<Made>> e : madeByUrl.entrySet()) {
            List<Change> visits = events.getOrDefault(e.getKey(), List.of());
            if (visits.isEmpty()) {
                continue;
            }
            long firstVisit = visits.getFirst().at().toEpochMilli();
            long lastVisit = visits.getLast().at().toEpochMilli();
            for (Made m : e.getValue()) {
                if (m.at() + IN_FLIGHT_MILLIS >= lastVisit || m.at() <= firstVisit) {
                    continue; // made after the last visit could have seen it, or before the first visit saw the page
                }
                assessed++;
                if (reportedAfter(visits, m.at())) {
                    reported++;
                }
            }
        }
        return new Recall(assessed, reported);
    }

    /** {@code changed} events, those right, and of them those of the right severity; unchanged ones, and as 304s. */
    private record Precision(long changed, long right, long severityRight, long unchanged, long notModified) {}

    /** Precision and severity: each "changed" must follow a change made since the visit before it. */
    private static Precision precision(Map<String, List<Made>> madeByUrl, Map<String, List<Change>> events) {
        long changed = 0;
        long right = 0;
        long severityRight = 0;
        long unchanged = 0;
        long notModified = 0;
        for (Map.Entry<String, List<Change>> e : events.entrySet()) {
            List<Made> made = madeByUrl.getOrDefault(e.getKey(), List.of());
            List<Change> visits = e.getValue();
            for (int i = 1; i < visits.size(); i++) {
                long from = visits.get(i - 1).at().toEpochMilli() - IN_FLIGHT_MILLIS;
                long to = visits.get(i).at().toEpochMilli();
                List<Made> between = made.stream().filter(m -> m.at() > from && m.at() <= to).toList();
                Change c = visits.get(i);
                if (c.kind() == Change.Kind.CHANGED) {
                    changed++;
                    if (!between.isEmpty()) {
                        right++;
                        String farmKind = between.getLast().kind();
                        if (farmKind.equals(c.severity())) {
                            severityRight++;
                        }
                    }
                } else if (c.kind() == Change.Kind.UNCHANGED && between.isEmpty()) {
                    unchanged++;
                    if (c.status() == 304) {
                        notModified++;
                    }
                }
            }
        }
        return new Precision(changed, right, severityRight, unchanged, notModified);
    }

    /** Visits per page of pages that never change, and of those that change every period. */
    private static double[] visitsPerPage(Map<String, List<Made>> madeByUrl, Map<String, List<Change>> events) {
        double staticVisits = 0;
        int staticPages = 0;
        double hotVisits = 0;
        int hotPages = 0;
        for (Map.Entry<String, List<Change>> e : events.entrySet()) {
            List<Made> made = madeByUrl.get(e.getKey());
            String kind = made == null ? "static" : made.getFirst().kind();
            if (kind.equals("static")) {
                staticVisits += e.getValue().size();
                staticPages++;
            } else if (kind.equals("minor") || kind.equals("major")) {
                hotVisits += e.getValue().size();
                hotPages++;
            }
        }
        return new double[] {staticVisits / Math.max(1, staticPages), hotVisits / Math.max(1, hotPages)};
    }

    /**
     * Whether the first visit that saw a change made at {@code madeAt} reported it. A visit whose event came
     * within {@link #IN_FLIGHT_MILLIS} after the change may have sent its request before it: if it said
     * {@code unchanged}, the next visit is the one that counts.
     */
    private static boolean reportedAfter(List<Change> visits, long madeAt) {
        for (Change c : visits) {
            long at = c.at().toEpochMilli();
            if (at <= madeAt) {
                continue;
            }
            boolean reports = c.kind() != Change.Kind.UNCHANGED && c.kind() != Change.Kind.NEW;
            if (reports || at > madeAt + IN_FLIGHT_MILLIS) {
                return reports;
            }
        }
        return false;
    }

    private static double ratio(long a, long b) {
        return b == 0 ? Double.NaN : Math.round(10_000.0 * a / b) / 10_000.0;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
