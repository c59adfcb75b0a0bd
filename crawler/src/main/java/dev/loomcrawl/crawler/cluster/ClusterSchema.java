package dev.loomcrawl.crawler.cluster;

import dev.loomcrawl.crawler.store.Schema;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;

/**
 * What nodes of a cluster share besides jobs and pages (PostgreSQL only, see {@link Schema}): every URL of a
 * cluster job and whether it is done, one lease row per host, the nodes and what each did per job.
 */
final class ClusterSchema {
    private ClusterSchema() {}

    /** Creates or completes the cluster's tables, under {@link Schema#extend}'s lock, in one transaction. */
    static void migrate(Statement st, Set<String> have) throws SQLException {
        // A continuous job's stored URL waits queued again until due_at (null: a first visit), with its schedule
        // (changes seen, watched since, the last interval: see revisit.RevisitSchedule).
        Schema.table(st, have, "cluster_frontier", """
                job_id BIGINT NOT NULL,
                url TEXT NOT NULL,
                host_key TEXT NOT NULL,
                depth INT NOT NULL,
                redirects INT NOT NULL,
                referrer TEXT,
                state VARCHAR(8) NOT NULL""", List.of(
                new Schema.Added("due_at", "TIMESTAMP WITH TIME ZONE"),
                new Schema.Added("changes", "INT NOT NULL DEFAULT 0"),
                new Schema.Added("watched_since", "TIMESTAMP WITH TIME ZONE"),
                new Schema.Added("interval_ms", "BIGINT NOT NULL DEFAULT 0"),
                // requests made of a URL not stored yet (retried after a 429 or a 5xx), whichever node made them
                new Schema.Added("attempts", "INT NOT NULL DEFAULT 0")), "PRIMARY KEY (job_id, url)");
        // Only what is left to fetch is indexed by host: done rows leave the index as they are marked.
        st.execute("CREATE INDEX IF NOT EXISTS cluster_frontier_queued ON cluster_frontier (host_key, job_id)"
                + " WHERE state = 'queued'");
        // A job's URLs still to fetch, counted for its progress by an index-only scan: at a million queued, 0.1 s
        // where reading the rows took 0.3 s.
        st.execute("CREATE INDEX IF NOT EXISTS cluster_frontier_due ON cluster_frontier (job_id, due_at)"
                + " WHERE state = 'queued'");
        hosts(st, have);
        st.execute("""
                CREATE TABLE IF NOT EXISTS cluster_nodes (
                  node_id TEXT PRIMARY KEY,
                  address TEXT,
                  started_at TIMESTAMP WITH TIME ZONE NOT NULL,
                  heartbeat_at TIMESTAMP WITH TIME ZONE NOT NULL,
                  pages BIGINT NOT NULL DEFAULT 0,
                  fetching INT NOT NULL DEFAULT 0)""");
        st.execute("""
                CREATE TABLE IF NOT EXISTS cluster_jobs (
                  job_id BIGINT PRIMARY KEY,
                  admitted BIGINT NOT NULL DEFAULT 0)""");
        st.execute("""
                CREATE TABLE IF NOT EXISTS cluster_work (
                  job_id BIGINT NOT NULL,
                  node_id TEXT NOT NULL,
                  pages BIGINT NOT NULL,
                  failed BIGINT NOT NULL,
                  skipped BIGINT NOT NULL,
                  fetches BIGINT NOT NULL,
                  in_flight INT NOT NULL,
                  updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
                  PRIMARY KEY (job_id, node_id))""");
    }

    /** One lease row per host, with its robots.txt and its politeness keys. */
    private static void hosts(Statement st, Set<String> have) throws SQLException {
        // The host's robots.txt as last fetched by any node, so that a node taking the host over need not
        // ask for it again: robots_at null means never; a null url with a time means none (allow all). Added
        // only where missing: PostgreSQL locks the whole table for an ALTER TABLE even when it changes nothing,
        // which would stall the running nodes' leases each time a node starts.
        Schema.table(st, have, "cluster_hosts", """
                host_key TEXT PRIMARY KEY,
                owner TEXT,
                epoch BIGINT NOT NULL DEFAULT 0,
                expires_at TIMESTAMP WITH TIME ZONE,
                rest_until TIMESTAMP WITH TIME ZONE""", List.of(
                new Schema.Added("robots_at", "TIMESTAMP WITH TIME ZONE"),
                new Schema.Added("robots_url", "TEXT"),
                new Schema.Added("robots_type", "TEXT"),
                new Schema.Added("robots_body", "BYTEA"),
                // The host's politeness keys (domain, address), filled in by the nodes: every host of a key in force
                // is held by one node at a time, whose gates then bound the key for the cluster.
                new Schema.Added("domain_key", "TEXT"),
                new Schema.Added("ip_key", "TEXT")), null);
        st.execute("CREATE INDEX IF NOT EXISTS cluster_hosts_domain ON cluster_hosts (domain_key)");
        st.execute("CREATE INDEX IF NOT EXISTS cluster_hosts_ip ON cluster_hosts (ip_key)");
        // The hosts a node holds, which its heartbeat renews, counts and gives back: without it each of those reads
        // every host ever seen (75 ms a call at a million hosts, 0.2 ms with it). Partial: few are held at a time.
        st.execute("CREATE INDEX IF NOT EXISTS cluster_hosts_held ON cluster_hosts (owner) WHERE owner IS NOT NULL");
    }
}
