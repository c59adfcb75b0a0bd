package dev.loomcrawl.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.testkit.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cluster's lease table, on a real PostgreSQL: a node's heartbeat renews its leases without waiting for its own
 * page stores, while those stores still keep every other node off the host; the hosts with work, which every
 * heartbeat shares out, are counted right.
 */
class ClusterLeasesTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Test
    void aRenewalDoesNotWaitForAStoreOfTheSameNodeAndNoOtherNodeTakesTheHostMeanwhile() throws Exception {
        String db = postgres.newDatabase();
        ExecutorService storing = Executors.newVirtualThreadPerTaskExecutor();
        try (PageStore store = PageStore.open(db); Connection frozen = DriverManager.getConnection(db);
             Connection look = DriverManager.getConnection(db)) {
            ClusterStore cluster = ClusterStore.open(store);
            long job = store.jobs().create("virtual", 0, "{}", true);
            cluster.admitSeeds(job, List.of(new ClusterStore.Link("http://a.test/", "a.test:80", 0, 0, null),
                    new ClusterStore.Link("http://a.test/more", "a.test:80", 0, 0, null)));
            ClusterLeases.Hold hold = cluster.leases().acquire("n1", 1, TTL).getFirst();

            // Another node's transaction, frozen after it counted the links it admitted: it holds the job's
            // counter row, which every store of the job updates last.
            frozen.setAutoCommit(false);
            try (Statement s = frozen.createStatement()) {
                s.executeUpdate("UPDATE cluster_jobs SET admitted = admitted WHERE job_id = " + job);
            }
            // n1 stores a page's links meanwhile: its transaction checks the lease, then waits for that row.
            CompletableFuture<ClusterStore.Committed> commit = CompletableFuture.supplyAsync(() -> cluster.commit("n1",
                    hold.hostKey(), hold.epoch(), job, null, null,
                    List.of(new ClusterStore.Link("http://a.test/x", "a.test:80", 1, 0, "http://a.test/")), List.of(), 10, 1_000),
                    storing);
            await().atMost(Duration.ofSeconds(20)).until(() -> waitingForALock(look));

            // The heartbeat renews the lease at once (it used to wait for the store, up to its lock timeout).
            List<ClusterLeases.Hold> renewed = cluster.leases().renew("n1", TTL);
            assertThat(renewed).extracting(ClusterLeases.Hold::hostKey).containsExactly(hold.hostKey());
            // Another node may not take the host while that store is open, even once the lease has expired.
            try (Statement s = look.createStatement()) {
                s.executeUpdate("UPDATE cluster_hosts SET expires_at = now() - interval '1 second' WHERE owner = 'n1'");
            }
            assertThat(cluster.leases().acquire("n2", 1, TTL)).isEmpty();

            frozen.rollback();
            assertThat(commit.get(20, TimeUnit.SECONDS)).isNotNull(); // stored: the lease was still n1's, same epoch
        } finally {
            storing.shutdownNow();
        }
    }

    @Test
    void hostsWithWorkCountsEachHostWithAQueuedUrlOnceInAnyJob() throws Exception {
        String db = postgres.newDatabase();
        try (PageStore store = PageStore.open(db); Connection c = DriverManager.getConnection(db)) {
            ClusterStore cluster = ClusterStore.open(store);
            assertThat(cluster.leases().hostsWithWork()).isZero();
            long first = store.jobs().create("virtual", 0, "{}", true);
            long second = store.jobs().create("virtual", 0, "{}", true);
            cluster.admitSeeds(first, List.of(new ClusterStore.Link("http://a.test/", "a.test:80", 0, 0, null),
                    new ClusterStore.Link("http://a.test/more", "a.test:80", 0, 0, null),
                    new ClusterStore.Link("http://b.test/", "b.test:80", 0, 0, null),
                    new ClusterStore.Link("http://c.test/", "c.test:80", 0, 0, null)));
            cluster.admitSeeds(second, List.of(new ClusterStore.Link("http://b.test/", "b.test:80", 0, 0, null)));
            assertThat(cluster.leases().hostsWithWork()).isEqualTo(3);

            try (Statement s = c.createStatement()) {
                // c's one URL done; b's done in the first job, still queued in the second
                s.executeUpdate("UPDATE cluster_frontier SET state = 'done' WHERE host_key = 'c.test:80'"
                        + " OR host_key = 'b.test:80' AND job_id = " + first);
            }
            assertThat(cluster.leases().hostsWithWork()).isEqualTo(2);
        }
    }

    private static boolean waitingForALock(Connection look) throws Exception {
        try (Statement s = look.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")) {
            return rs.next() && rs.getLong(1) > 0;
        }
    }
}
