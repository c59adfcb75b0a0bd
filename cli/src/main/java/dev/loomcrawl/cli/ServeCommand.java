package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.Jobs;
import dev.loomcrawl.crawler.cluster.ClusterNode;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ExecutionMode;
import dev.loomcrawl.crawler.values.NodeSettings;
import dev.loomcrawl.crawler.values.Passwords;
import dev.loomcrawl.server.ApiServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomcrawl serve}: the crawl service, until stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the crawl service: POST /crawl, GET /crawl/{id}, GET /stats, ... (see /openapi.json).")
final class ServeCommand implements Callable<Integer> {
    static final String TOKEN_ENV = "LOOMCRAWL_TOKEN";
    static final String READY = "loomcrawl serving on ";
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    /** The defaults of jobs that do not choose their own mode and pool size. */
    @Mixin
    EngineOptions engine;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}); anything but loopback needs a token.")
    @SuppressWarnings("NullAway.Init") // picocli sets it: a default, or required
    String host;
    @Option(names = "--port", paramLabel = "N", defaultValue = "7070", description = "Port (default: ${DEFAULT-VALUE}; 0: any free).")
    int port;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Bearer token every route but /health needs (or the environment variable " + TOKEN_ENV + ").")
    @Nullable String token;
    @Option(names = "--read-token", paramLabel = "TOKEN", description = "A second token that may only read (GET).")
    @Nullable String readToken;
    @Option(names = "--allowed-host-name", paramLabel = "NAME",
            description = "A name requests may carry in their Host header besides the bound address and localhost;"
                    + " repeatable. Others are answered 421 (a guard against DNS rebinding).")
    List<String> allowedHostNames = new ArrayList<>();

    @Option(names = "--per-host", paramLabel = "N", defaultValue = "8",
            description = "Requests in flight to one host at most, all jobs and /fetch together (default: ${DEFAULT-VALUE}).")
    int perHost;

    @Mixin
    InFlightOptions inFlight;

    @Mixin
    PolitenessOptions politeness;

    @Mixin
    ConnectionOptions connections;

    @Option(names = "--max-pool-size", paramLabel = "N", defaultValue = "1000",
            description = "Most platform threads a pool-mode job may ask for (default: ${DEFAULT-VALUE}).")
    int maxPoolSize;

    @Option(names = "--node-id", paramLabel = "NAME",
            description = "This node's name in the cluster of every serve on the same PostgreSQL --db (default: <host name>-<port>)."
                    + " A PostgreSQL --db always makes serve a cluster node; H2 cannot be shared.")
    @Nullable String nodeId;
    @Option(names = "--lease-ttl", paramLabel = "SECONDS", defaultValue = "30",
            description = "Cluster: how long a node's lease on a host lasts unless its heartbeat renews it, so how soon"
                    + " a dead node's hosts move on (default: ${DEFAULT-VALUE}).")
    double leaseTtlSeconds;

    @Option(names = "--content", paramLabel = "markdown|text", description = "Keep the main content of every job's"
            + " pages, and give it in every POST /fetch result, unless the request says otherwise (\"content\":"
            + " \"none\").")
    @Nullable String content;
    @Option(names = "--warc-dir", paramLabel = "DIR", description = "Keep a WARC file of each job's fetches here (a"
            + " request and a response record for every stored URL), unless its POST /crawl says \"warc\": false;"
            + " GET /crawl/{id}/warc serves it. On a cluster node, its part of each cluster job: the pages it fetched.")
    @Nullable Path warcDir;
    @Option(names = "--no-pinning-watch", description = "Do not stream JFR VirtualThreadPinned events into /stats.")
    boolean noPinningWatch;

    @Option(names = "--allow-private-addresses",
            description = "On a server bound to anything but loopback, let jobs and /fetch reach loopback, private and"
                    + " link-local addresses (169.254.169.254 included). Off by default there, and no request can lift it.")
    boolean allowPrivateAddresses;

    @Override
    public Integer call() throws Exception {
        ExecutionMode defaultMode = engine.executionMode();
        String secret = blankToNull(token != null ? token : System.getenv(TOKEN_ENV));
        String reader = blankToNull(readToken);
        boolean loopback = isLoopback(host);
        boolean clustered = Database.shared(engine.db);
        checkFlags(secret, reader, loopback, clustered);
        NodeSettings probe = new NodeSettings(nodeId == null ? "node" : nodeId, null,
                CrawlCommand.seconds(leaseTtlSeconds)); // every argument checked before anything starts
        CrawlerOptions options = connections.on(politeness.on(inFlight.options(perHost)));
        Database database = Database.open(engine.db);
        if (clustered) {
            try {
                // Before the port is taken: a node id in use by a live node is refused with nothing started.
                ClusterNode.requireFree(database, new NodeSettings(nodeId != null ? nodeId : defaultNodeId(port),
                        null, probe.leaseTtl()));
            } catch (RuntimeException e) {
                database.close();
                throw e;
            }
        }
        Crawler crawler = new Crawler(database, options);
        ApiServer server;
        try {
            server = ApiServer.starting(new ApiServer.Settings(host, port, defaultMode, engine.poolSize, maxPoolSize, secret,
                    reader, Set.copyOf(allowedHostNames), !noPinningWatch, !loopback && !allowPrivateAddresses,
                    content == null ? ContentFormat.NONE : Flags.contentFormat("--content", content), warcDir), crawler);
        } catch (RuntimeException e) {
            // Nothing was resumed yet: every unfinished job stays as it was, for the next start.
            crawler.close();
            database.close();
            throw new IllegalStateException(bindProblem(host, port, e), e);
        }
        String base = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
        ClusterNode node = null;
        if (clustered) {
            // Only now that the server is up: the node's address is known, and it takes work at once.
            node = ClusterNode.join(crawler, new NodeSettings(nodeId != null ? nodeId : defaultNodeId(server.port()),
                    base, probe.leaseTtl(), warcDir));
            server.joined(node);
        }
        // Only now that the server is up: jobs an earlier process left unfinished carry on. Not on a cluster
        // node: a one-process job there belongs to the process that ran it (loomcrawl resume), and every
        // node resuming it would crawl it once each. Cluster jobs carry on by themselves.
        List<Long> resumed = clustered ? List.of() : crawler.resumeUnfinished();
        server.ready();
        CountDownLatch stopped = stopOnShutdown(server, node, crawler, database);
        announce(base, defaultMode, secret, node, probe.leaseTtl(), resumed);
        stopped.await();
        return 0;
    }

    /** What a user needs to start: the address, the defaults, the cluster, jobs resumed, the dashboard, a try. */
    private void announce(String base, ExecutionMode defaultMode, @Nullable String secret, @Nullable ClusterNode node,
            Duration leaseTtl, List<Long> resumed) {
        PrintWriter out = spec.commandLine().getOut();
        out.printf(READY + "%s (%s mode by default, pool size %d, per-host %d, db %s)%s%n", base, defaultMode.label(),
                engine.poolSize, perHost, Passwords.hidden(engine.db), secret == null ? "" : ", token required");
        if (node != null) {
            out.printf("cluster node %s: sharing the cluster jobs of %s (host leases of %s s; GET /cluster)%n",
                    node.nodeId(), Passwords.hidden(engine.db), leaseTtl.toSeconds());
        }
        if (!resumed.isEmpty()) {
            out.printf("resumed %d job(s) an earlier process left unfinished: %s%n", resumed.size(), resumed);
        }
        out.println("dashboard: " + base + "/   API: " + base + "/openapi.json");
        out.println("try: curl -s -XPOST " + base + "/crawl -H 'Content-Type: application/json'"
                + (secret == null ? "" : " -H 'Authorization: Bearer $" + TOKEN_ENV + "'")
                + " -d '{\"seeds\":[\"https://example.com/\"],\"maxPages\":100}'");
        out.flush();
    }

    /** Every flag that cannot work, refused before anything starts. */
    private void checkFlags(@Nullable String secret, @Nullable String reader, boolean loopback, boolean clustered) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, was " + port);
        }
        if (maxPoolSize < 1 || maxPoolSize > CrawlConfig.MAX_POOL_SIZE) {
            throw new IllegalArgumentException("--max-pool-size must be between 1 and " + CrawlConfig.MAX_POOL_SIZE
                    + ", was " + maxPoolSize);
        }
        if (engine.poolSize < 1 || engine.poolSize > maxPoolSize) {
            throw new IllegalArgumentException("--pool-size must be between 1 and " + maxPoolSize + " (--max-pool-size),"
                    + " was " + engine.poolSize);
        }
        if (reader != null && secret == null) {
            throw new IllegalArgumentException("--read-token needs --token too: it names who may only read");
        }
        if (!loopback && secret == null) {
            throw new IllegalArgumentException("--host " + host + " is not loopback: give an access token with --token"
                    + " or " + TOKEN_ENV + " (every request but /health must then carry 'Authorization: Bearer <token>')");
        }
        if (warcDir != null) {
            warcDir = warcDir.toAbsolutePath().normalize();
            try {
                Files.createDirectories(warcDir);
            } catch (IOException e) {
                throw new IllegalArgumentException("--warc-dir " + warcDir + " cannot be made: " + e.getMessage());
            }
            if (!Files.isWritable(warcDir)) {
                throw new IllegalArgumentException("--warc-dir " + warcDir + " cannot be written");
            }
        }
        if (nodeId != null && !clustered) {
            throw new IllegalArgumentException("--node-id needs a PostgreSQL --db (jdbc:postgresql://...): nodes share a"
                    + " crawl through it; H2 is one process's");
        }
    }

    /**
     * On SIGTERM or Ctrl-C: no new requests, fetches in flight get a grace period to finish and be stored (the jobs
     * stay unfinished and resume at the next start; a node's shares go on on the other nodes), then the node gives
     * its hosts back and the database is closed. Counted down when done.
     */
    private static CountDownLatch stopOnShutdown(ApiServer server, @Nullable ClusterNode node, Crawler crawler, Database database) {
        CountDownLatch stopped = new CountDownLatch(1);
        Jobs jobs = node != null ? node : crawler;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            try {
                jobs.suspend(SHUTDOWN_GRACE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (node != null) {
                    node.close(); // gives its hosts back at once
                }
                crawler.close();
                database.close(); // drain the writer and close the database here: the JVM halts when hooks return
                stopped.countDown();
            }
        }));
        return stopped;
    }

    private static String defaultNodeId(int port) {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            name = "node";
        }
        String id = (name + "-" + port).replaceAll("[^A-Za-z0-9._:-]", "-");
        return id.length() <= 64 ? id : id.substring(id.length() - 64);
    }

    /** One line for why the server could not listen. */
    /** Why the server could not listen on {@code host:port}, in one line that names them. */
    static String bindProblem(String host, int port, Throwable e) {
        String where = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException bind) {
                String message = String.valueOf(bind.getMessage()).toLowerCase(Locale.ROOT);
                if (message.contains("assign") || message.contains("not available")) {
                    return "cannot listen on " + where + ": this machine has no such address (" + bind.getMessage() + ")";
                }
                if (message.contains("in use")) {
                    return "cannot listen on " + where + ": the port is in use by another process (--port chooses"
                            + " another; --port=0 any free one)";
                }
                return "cannot listen on " + where + ": " + bind.getMessage();
            }
        }
        return "cannot start the server on " + where + ": " + e.getMessage();
    }

    private static @Nullable String blankToNull(@Nullable String s) {
        return s == null || s.isBlank() ? null : s;
    }

    static boolean isLoopback(String host) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--host: unknown address '" + host + "'");
        }
    }
}
