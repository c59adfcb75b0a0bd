package dev.loomcrawl.crawler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.testkit.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The cluster's tables on a real PostgreSQL. */
class ClusterSchemaTest {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    /** A cluster table made before it kept robots.txt gets those columns; a second open changes nothing. */
    @Test
    void anOlderClusterTableGetsTheColumnsItLacks() throws Exception {
        String db = postgres.newDatabase();
        try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE cluster_hosts (host_key TEXT PRIMARY KEY, owner TEXT, epoch BIGINT NOT NULL DEFAULT 0,"
                    + " expires_at TIMESTAMP WITH TIME ZONE, rest_until TIMESTAMP WITH TIME ZONE)");
        }
        for (int i = 0; i < 2; i++) { // the cluster's tables are brought up to date as a node opens them
            try (PageStore store = PageStore.open(db)) {
                ClusterStore.open(store).close();
            }
        }
        try (Connection c = DriverManager.getConnection(db); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns"
                        + " WHERE table_name = 'cluster_hosts' AND column_name LIKE 'robots_%' ORDER BY column_name")) {
            List<String> robots = new ArrayList<>();
            while (rs.next()) {
                robots.add(rs.getString(1));
            }
            assertThat(robots).containsExactly("robots_at", "robots_body", "robots_type", "robots_url");
        }
    }
}
