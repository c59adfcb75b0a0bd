package dev.loomcrawl.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a PostgreSQL database has done so far, for a cost per page: statements and transactions of this
 * database (pg_stat_statements, which the embedded server preloads) and the CPU time of the server's
 * processes still alive (backends that already exited are not counted: the nodes' pools keep theirs).
 *
 * @param unmeasured why the statements were not counted (a server without pg_stat_statements loaded), or null
 */
record PgCost(long statements, long commits, double cpuSeconds, List<String> top, String vacuum, String unmeasured) {

    static PgCost sample(String jdbcUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement st = c.createStatement()) {
            long statements = 0;
            long commits = 0;
            List<String> top = new ArrayList<>();
            String unmeasured = null;
            try {
                st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); // autocommit: a failure spoils nothing
            } catch (SQLException e) {
                unmeasured = e.getMessage(); // a server of the user's may not have it, nor let us create it
            }
            try (ResultSet rs = st.executeQuery("SELECT calls, query, total_exec_time + total_plan_time FROM"
                    + " pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
                    + " ORDER BY total_exec_time + total_plan_time DESC")) {
                while (rs.next()) {
                    statements += rs.getLong(1);
                    String query = rs.getString(2).replaceAll("\\s+", " ").strip();
                    if (query.equalsIgnoreCase("BEGIN")) { // the JDBC driver's commit is not a statement here
                        commits += rs.getLong(1);
                    }
                    if (top.size() < 8) {
                        top.add(String.format(Locale.ROOT, "%,9d  %,7.0f ms  %s", rs.getLong(1), rs.getDouble(3),
                                query.length() > 90 ? query.substring(0, 90) + "..." : query));
                    }
                }
            } catch (SQLException e) {
                unmeasured = unmeasured != null ? unmeasured : e.getMessage(); // not in shared_preload_libraries
            }
            long backend;
            try (ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                backend = rs.getLong(1);
            }
            double cpu = ProcessHandle.of(backend).flatMap(ProcessHandle::parent).map(postmaster ->
                    postmaster.descendants().mapToDouble(PgCost::cpu).sum() + cpu(postmaster)).orElse(0.0);
            String vacuum;
            try (ResultSet rs = st.executeQuery("SELECT n_tup_ins, n_tup_upd, n_dead_tup, autovacuum_count FROM"
                    + " pg_stat_user_tables WHERE relname = 'cluster_frontier'")) {
                vacuum = rs.next() ? String.format(Locale.ROOT, "cluster_frontier: %,d rows inserted, %,d updated,"
                        + " %,d dead rows now, autovacuum ran %d times", rs.getLong(1), rs.getLong(2), rs.getLong(3),
                        rs.getLong(4)) : "";
            }
            return new PgCost(statements, commits, cpu, top, vacuum, unmeasured);
        }
    }

    private static double cpu(ProcessHandle p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L) / 1e9;
    }

    /** What was done between {@code earlier} and this sample; the top statements are this sample's. */
    PgCost minus(PgCost earlier) {
        return new PgCost(statements - earlier.statements, commits - earlier.commits, cpuSeconds - earlier.cpuSeconds, top,
                vacuum, unmeasured != null ? unmeasured : earlier.unmeasured);
    }
}
