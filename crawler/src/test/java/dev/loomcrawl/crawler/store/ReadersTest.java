package dev.loomcrawl.crawler.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.loomcrawl.testkit.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The read pool on a real PostgreSQL server, used the way a cluster node's crawl tasks use it. */
class ReadersTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    /**
     * Hundreds of virtual threads on two connections wait in line before the pool, not inside it: HikariCP
     * hands a returned connection to a waiter inside it by spinning, which with virtual threads on both carriers
     * once stopped a cluster node for good (see {@link Readers}).
     */
    @Test
    void manyVirtualThreadsWaitBeforeThePoolNotInIt() throws Exception {
        try (Readers readers = Readers.postgres(postgres.newDatabase(), 2, "readers-test")) {
            HikariDataSource pool = (HikariDataSource) readers.dataSource();
            // The pool opens its connections at start, in the background: a fixed pool, once open.
            await().atMost(Duration.ofSeconds(30)).until(() -> pool.getHikariPoolMXBean().getTotalConnections() == 2);
            AtomicInteger done = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int q = 0; q < 10; q++) {
                        assertThat(readers.count("SELECT 1")).isEqualTo(1);
                    }
                    done.incrementAndGet();
                }));
            }
            int mostWaitingInThePool = 0;
            for (Thread t : threads) {
                while (t.isAlive()) { // sampled while the queries run; bounded by them and the global timeout
                    mostWaitingInThePool = Math.max(mostWaitingInThePool,
                            pool.getHikariPoolMXBean().getThreadsAwaitingConnection());
                    t.join(1);
                }
            }
            assertThat(done).hasValue(300);
            // HikariCP counts a borrower as waiting while it looks for a free connection, even one it finds at
            // once: at most the two callers with a permit. Without the gate, nearly all 300 wait there.
            assertThat(mostWaitingInThePool).as("threads waiting inside the pool").isLessThanOrEqualTo(2);
        }
    }
}
