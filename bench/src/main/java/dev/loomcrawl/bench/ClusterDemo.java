package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.localpg.LocalPostgres;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.mocksites.SiteGraph;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code demo --nodes=N}: a cluster on this machine with nothing installed. An embedded PostgreSQL, the mock
 * farm in its own process, N {@code serve} node processes on the one database; one crawl posted to the
 * first node, one node killed with SIGKILL mid-crawl, and the figures that show what the cluster promises:
 * every page stored once, no host asked by more nodes than its limit allows, the dead node's work taken over.
 */
final class ClusterDemo {
    static final String SERVE_READY = "loomcrawl serving on ";
    private static final int PER_HOST = 4;
    private static final String LEASE_TTL = "10";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String mainClass;
    private final PrintWriter out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ClusterDemo(String mainClass, PrintWriter out) {
        this.mainClass = mainClass;
        this.out = out;
    }

    /** @param ownDb a PostgreSQL of the user's to run on, or null for an embedded one made for the demo */
    int run(int nodeCount, String ownDb, Path dir) throws Exception {
        Files.createDirectories(dir);
        List<ChildProcess> nodes = new ArrayList<>();
        long start = System.nanoTime();
        try (LocalPostgres postgres = ownDb == null ? LocalPostgres.start() : null;
             FarmProcess farm = FarmProcess.start(mainClass, List.of("--scenario=demo", "--hosts=60",
                     "--pages-per-host=40", "--latency=300"), dir.resolve("seeds.txt"))) {
            SiteGraph graph = new SiteGraph(Scenario.DEMO.config().withSize(60, 40).withLatency(LatencyModel.fixed(300)), 0);
            long total = graph.config().totalPages();
            String db = ownDb == null ? postgres.newDatabase() : ownDb;
            say("PostgreSQL %s; mock farm of 60 hosts x 40 pages, 300 ms each, on port %d", ownDb == null
                    ? "(embedded) on 127.0.0.1:" + postgres.port() : "(yours) at " + Passwords.hidden(ownDb), farm.port());
            List<String> bases = startNodes(nodeCount, db, nodes);
            String seeds = farm.seeds().stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(","));
            JsonNode job = call("POST", bases.getFirst() + "/crawl", "{\"seeds\":[" + seeds + "],\"maxDepth\":" + (graph.maxDepth() + 1) + ","
                    + "\"perHostConcurrency\":" + PER_HOST + "}");
            long id = job.get("id").asLong();
            PgCost before = PgCost.sample(db);
            say("job %d posted to node-1; every node takes a share of its hosts (GET /cluster shows the leases)", id);

            int killed = nodeCount >= 2 ? 2 : 0;
            int heldByKilled = 0;
            JsonNode view;
            while (true) {
                String watcher = bases.get(nodeCount >= 3 ? 2 : 0);
                view = call("GET", watcher + "/crawl/" + id, null);
                long stored = view.get("progress").get("pages").asLong();
                say("%5.1f s  %,5d / %,d pages  %s", (System.nanoTime() - start) / 1e9, stored, total, shares(view));
                if (!view.get("status").asText().equals("running")) {
                    break;
                }
                if (killed > 0 && stored >= total * 35 / 100) {
                    heldByKilled = hostsOf(bases.getFirst(), "node-" + killed);
                    nodes.get(killed - 1).kill();
                    say("node-%d killed (SIGKILL) mid-crawl: its hosts move to the others once its leases expire"
                            + " (--lease-ttl=%s s)", killed, LEASE_TTL);
                    bases.set(killed - 1, null);
                    killed = 0;
                }
                Thread.sleep(1_000); // a progress line a second, not a wait for an event
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            JsonNode farmSaw = JSON.readTree(farm.counters());
            long stored = view.get("progress").get("pages").asLong();
            long[] rows = rowsAndUrls(db, id);
            sayEnd(id, view, seconds, rows, farmSaw, heldByKilled);
            Thread.sleep(1_000); // the statistics collector reports table counters about every 500 ms
            sayCost(PgCost.sample(db), before, stored, seconds);
            return view.get("status").asText().equals("done") && stored == total && rows[0] == rows[1]
                    && farmSaw.path("maxInFlightPerHost").asInt() <= PER_HOST ? 0 : 1;
        } finally {
            nodes.forEach(ChildProcess::close);
            http.close();
        }
    }

    /** The job's end: rows, fetches, the most in flight at a host, each node's share. */
    private void sayEnd(long id, JsonNode view, double seconds, long[] rows, JsonNode farmSaw, int heldByKilled) {
        long pageFetches = farmSaw.path("byKind").path("page").asLong();
        long stored = view.get("progress").get("pages").asLong();
        say("");
        say("job %d %s in %.1f s: %,d pages stored; %,d rows in all (links recorded unfetched, robots.txt's, too)"
                + " for %,d URLs%s", id, view.get("status").asText(), seconds, stored, rows[0], rows[1],
                rows[0] == rows[1] ? ": each once" : ": SOME TWICE");
        // Out: fetching (the per-host limit) or waiting for their batch to commit (as many again).
        say("pages fetched %,d times: %,d fetched again, URLs the killed node had out when it died, fetching or"
                + " storing (it held %d hosts, so at most %d)", pageFetches, pageFetches - stored, heldByKilled,
                heldByKilled * 2 * PER_HOST);
        say("most requests in flight to one host, all nodes together: %d (limit %d)",
                farmSaw.path("maxInFlightPerHost").asInt(), PER_HOST);
        say("by node: %s", shares(view));
    }

    /** {@code nodeCount} serve processes on {@code db} (into {@code nodes}); their base URLs. */
    private List<String> startNodes(int nodeCount, String db, List<ChildProcess> nodes) throws Exception {
        List<String> bases = new ArrayList<>();
        for (int i = 1; i <= nodeCount; i++) {
            ChildProcess node = ChildProcess.start(mainClass, List.of("-Xmx512m"), List.of("serve", "--port=0",
                    "--db=" + db, "--node-id=node-" + i, "--lease-ttl=" + LEASE_TTL, "--per-host=" + PER_HOST,
                    "--no-pinning-watch"), SERVE_READY);
            nodes.add(node);
            String ready = node.readyLine();
            bases.add(ready.substring(SERVE_READY.length()).split(" ")[0]);
            say("node-%d serving on %s", i, bases.getLast());
        }
        return bases;
    }

    /** What PostgreSQL did per stored page since {@code before}. */
    private void sayCost(PgCost after, PgCost before, long stored, double seconds) throws InterruptedException {
        PgCost cost = after.minus(before);
        if (cost.unmeasured() != null) {
            say("PostgreSQL per stored page: statements not counted (%s); its CPU: %.2f ms a page (%.1f CPU-s;"
                    + " %.0f pages/s)", cost.unmeasured().lines().findFirst().orElse(""),
                    cost.cpuSeconds() * 1000 / stored, cost.cpuSeconds(), stored / seconds);
        } else {
            say("PostgreSQL per stored page: %.1f statements in %.2f transactions, %.2f ms of its CPU (%,d statements,"
                    + " %.1f CPU-s in all; %.0f pages/s)", cost.statements() / (double) stored,
                    cost.commits() / (double) stored, cost.cpuSeconds() * 1000 / stored, cost.statements(),
                    cost.cpuSeconds(), stored / seconds);
            cost.top().forEach(line -> say("  %s", line));
        }
        say("%s", cost.vacuum());
    }

    /** The job's stored rows and distinct URLs among them, counted by the database. */
    private static long[] rowsAndUrls(String db, long jobId) throws SQLException {
        try (Connection c = DriverManager.getConnection(db);
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), COUNT(DISTINCT url) FROM pages WHERE job_id = ?")) {
            ps.setLong(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    /** Hosts {@code node} holds now, from {@code GET /cluster}. */
    private int hostsOf(String base, String node) throws IOException, InterruptedException {
        int held = 0;
        for (JsonNode lease : call("GET", base + "/cluster", null).path("leases")) {
            held += lease.get("owner").asText().equals(node) ? 1 : 0;
        }
        return held;
    }

    private static String shares(JsonNode job) {
        List<String> parts = new ArrayList<>();
        for (JsonNode n : job.path("nodes")) {
            parts.add(String.format(Locale.ROOT, "%s %,d%s", n.get("node").asText(), n.get("pages").asLong(),
                    n.get("live").asBoolean() ? "" : " (dead)"));
        }
        return String.join(", ", parts);
    }

    private JsonNode call(String method, String url, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException(method + " " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private void say(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
        out.flush();
    }
}
