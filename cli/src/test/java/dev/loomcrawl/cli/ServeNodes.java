package dev.loomcrawl.cli;

import static org.awaitility.Awaitility.await;

import dev.loomcrawl.bench.ChildProcess;
import dev.loomcrawl.testkit.Http;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Real {@code serve} processes joined as nodes of one cluster, for the cluster tests: a lease of 6 s (a dead
 * node's hosts move on after it) and per-host 2. Closing prints what went wrong in a node, if anything, for a
 * failed run's report, then stops them all.
 */
final class ServeNodes implements AutoCloseable {
    static final int PER_HOST = 2;
    private static final String TTL = "6";
    private final List<ChildProcess> processes = new ArrayList<>();

    /** Starts node {@code id} on database {@code db} and waits until it has joined; its API. */
    Http join(String db, String id) throws Exception {
        ChildProcess serve = CrashRecoveryTest.serve(db, "--node-id=" + id, "--lease-ttl=" + TTL, "--per-host=" + PER_HOST);
        processes.add(serve);
        await().atMost(Duration.ofSeconds(10)).until(() -> serve.output().stream().anyMatch(l -> l.startsWith("cluster node " + id)));
        return Http.local(CrashRecoveryTest.port(serve));
    }

    /** The {@code i}th node started (from 0). */
    ChildProcess get(int i) {
        return processes.get(i);
    }

    List<ChildProcess> all() {
        return List.copyOf(processes);
    }

    @Override
    public void close() {
        processes.forEach(n -> n.output().stream().filter(l -> l.contains("ERROR") || l.contains("failed")).limit(20)
                .forEach(l -> System.out.println("node: " + l)));
        processes.forEach(ChildProcess::close);
    }
}
