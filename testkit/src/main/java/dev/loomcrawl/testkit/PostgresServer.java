package dev.loomcrawl.testkit;

import dev.loomcrawl.localpg.LocalPostgres;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL server ({@link LocalPostgres}) for one test class: started before its first test,
 * stopped after its last, a fresh database per {@link #newDatabase()}.
 *
 * <pre>{@code @RegisterExtension static final PostgresServer POSTGRES = new PostgresServer();}</pre>
 */
public final class PostgresServer implements BeforeAllCallback, AfterAllCallback {
    private LocalPostgres server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = LocalPostgres.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    /** The JDBC URL of a new, empty database, user and password included. */
    public String newDatabase() {
        return server.newDatabase();
    }
}
