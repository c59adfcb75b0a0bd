package dev.loomcrawl.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.testkit.PostgresServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cluster's lease table, on a real PostgreSQL: a node's heartbeat renews its leases without waiting for its own
 * page stores, while those stores still keep every other node off the host, but for a store of a node frozen
 * inside it past its lease (or started again), which another node ends; the hosts with work, which every heartbeat
 * shares out, are counted right.
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
    void aNodeFrozenInsideAStoreKeepsItsHostOnlyUntilItIsDeadByHeartbeat() throws Exception {
        String db = postgres.newDatabase();
        try (PageStore store = PageStore.open(db); Relay relay = new Relay(db); FrozenStore n1 = new FrozenStore(db, store, relay)) {
            ClusterStore cluster = n1.others;
            assertThat(cluster.leases().endDeadNodesTransactions(TTL)).as("n1 is alive").isZero();

            // n1 is dead by heartbeat: none for longer than a lease, and its lease has run out
            n1.sql("UPDATE cluster_nodes SET started_at = now() - interval '2 minutes',"
                    + " heartbeat_at = now() - interval '1 minute' WHERE node_id = 'n1'");
            n1.sql("UPDATE cluster_hosts SET expires_at = now() - interval '1 second' WHERE owner = 'n1'");
            assertThat(cluster.leases().acquire("n2", 1, TTL)).as("its store still holds the host").isEmpty();

            assertThat(cluster.leases().endDeadNodesTransactions(TTL)).isEqualTo(1);
            List<ClusterLeases.Hold> taken = await().atMost(Duration.ofSeconds(20))
                    .until(() -> cluster.leases().acquire("n2", 1, TTL), holds -> !holds.isEmpty());
            assertThat(taken).extracting(ClusterLeases.Hold::hostKey).containsExactly(n1.hold.hostKey());

            // n1 wakes to its session ended: its store runs again, finds the host n2's, and stores nothing
            n1.blocker.rollback();
            relay.thaw();
            assertThat(n1.commit.get(20, TimeUnit.SECONDS)).isNull();
            assertThat(n1.count("SELECT count(*) FROM cluster_frontier WHERE url = 'http://a.test/x'")).isZero();
        }
    }

    @Test
    void aNodeStartedAgainEndsWhatItsEarlierProcessLeftOpen() throws Exception {
        String db = postgres.newDatabase();
        try (PageStore store = PageStore.open(db); Relay relay = new Relay(db); FrozenStore n1 = new FrozenStore(db, store, relay)) {
            ClusterStore cluster = n1.others;
            cluster.leases().restart("n1"); // its heartbeat is young: the node of that name is alive again

            assertThat(cluster.leases().endDeadNodesTransactions(TTL)).isEqualTo(1);
            await().atMost(Duration.ofSeconds(20)).until(() -> cluster.leases().acquire("n1", 1, TTL), holds -> !holds.isEmpty());
            n1.blocker.rollback();
            relay.thaw();
            assertThat(n1.commit.get(20, TimeUnit.SECONDS)).isNull(); // the earlier process's epoch is over
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

    /**
     * Node n1's store of a page's links, stopped on the job's counter row (which {@code blocker} holds), and n1
     * frozen there by its {@link Relay}: its session is in the middle of a transaction, waiting, holding its
     * host's lease row; {@code others} is the cluster as the other nodes reach it.
     */
    private static final class FrozenStore implements AutoCloseable {
        final ClusterStore others;
        final PageStore store;
        final ClusterStore cluster;
        final Connection blocker;
        final Connection look;
        final ClusterLeases.Hold hold;
        final CompletableFuture<ClusterStore.Committed> commit;
        private final Relay relay;
        private final ExecutorService storing = Executors.newVirtualThreadPerTaskExecutor();

        FrozenStore(String db, PageStore shared, Relay relay) throws Exception {
            this.relay = relay;
            others = ClusterStore.open(shared);
            store = PageStore.open(relay.url(db));
            cluster = ClusterStore.open(store);
            blocker = DriverManager.getConnection(db);
            look = DriverManager.getConnection(db);
            long job = shared.jobs().create("virtual", 0, "{}", true);
            others.admitSeeds(job, List.of(new ClusterStore.Link("http://a.test/", "a.test:80", 0, 0, null)));
            others.leases().heartbeat("n1", null, 0, 0);
            hold = others.leases().acquire("n1", 1, TTL).getFirst();
            blocker.setAutoCommit(false);
            try (Statement s = blocker.createStatement()) {
                s.executeUpdate("UPDATE cluster_jobs SET admitted = admitted WHERE job_id = " + job);
            }
            commit = CompletableFuture.supplyAsync(() -> cluster.commit("n1", hold.hostKey(), hold.epoch(), job, null, null,
                    List.of(new ClusterStore.Link("http://a.test/x", "a.test:80", 1, 0, "http://a.test/")), List.of(), 10, 1_000),
                    storing);
            await().atMost(Duration.ofSeconds(20)).until(() -> waitingForALock(look));
            relay.freeze();
        }

        void sql(String update) throws Exception {
            try (Statement s = look.createStatement()) {
                s.executeUpdate(update);
            }
        }

        long count(String query) throws Exception {
            try (Statement s = look.createStatement(); ResultSet rs = s.executeQuery(query)) {
                rs.next();
                return rs.getLong(1);
            }
        }

        @Override
        public void close() throws Exception {
            relay.thaw(); // n1's pools close, not wait
            storing.shutdownNow();
            try (blocker; look; store; cluster; others) {
                blocker.rollback();
            }
        }
    }

    /**
     * A TCP relay to the test's PostgreSQL that can freeze: what either side sends is held until it thaws, as a
     * process stopped with {@code kill -STOP} holds it (the server sees an open connection that says nothing).
     */
    private static final class Relay implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final int target;
        private volatile CountDownLatch thawed = new CountDownLatch(0);

        Relay(String db) throws IOException {
            target = URI.create(db.substring("jdbc:".length())).getPort();
            Thread.ofVirtual().start(this::accept);
        }

        /** {@code db}'s URL through this relay. */
        String url(String db) {
            return db.replace(":" + target + "/", ":" + server.getLocalPort() + "/");
        }

        void freeze() {
            thawed = new CountDownLatch(1);
        }

        void thaw() {
            thawed.countDown();
        }

        private void accept() {
            try {
                while (true) {
                    Socket client = server.accept();
                    Socket postgres = new Socket(InetAddress.getLoopbackAddress(), target);
                    sockets.add(client);
                    sockets.add(postgres);
                    Thread.ofVirtual().start(() -> pump(client, postgres));
                    Thread.ofVirtual().start(() -> pump(postgres, client));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void pump(Socket from, Socket to) {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = from.getInputStream().read(buffer)) >= 0; ) {
                    thawed.await();
                    to.getOutputStream().write(buffer, 0, n);
                }
                to.shutdownOutput();
            } catch (IOException | InterruptedException e) {
                closeQuietly(from);
                closeQuietly(to);
            }
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing
            }
        }

        @Override
        public void close() throws IOException {
            thaw();
            server.close();
            sockets.forEach(Relay::closeQuietly);
        }
    }
}
