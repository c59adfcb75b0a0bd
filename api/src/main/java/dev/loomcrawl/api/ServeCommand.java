package dev.loomcrawl.api;

import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.ExecutionMode;
import dev.loomcrawl.crawler.PageStore;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
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
    @picocli.CommandLine.Mixin
    EngineOptions engine;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}); anything but loopback needs a token.")
    String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "7070", description = "Port (default: ${DEFAULT-VALUE}; 0: any free).")
    int port;


    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Bearer token for POST and DELETE (or the environment variable " + TOKEN_ENV + ").")
    String token;

    @Option(names = "--no-pinning-watch", description = "Do not stream JFR VirtualThreadPinned events into /stats.")
    boolean noPinningWatch;

    @Override
    public Integer call() throws Exception {
        ExecutionMode defaultMode = engine.executionMode();
        int poolSize = engine.poolSize;
        String db = engine.db;
        if (poolSize < 1 || poolSize > 100_000) {
            throw new IllegalArgumentException("--pool-size must be between 1 and 100000, was " + poolSize);
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be between 0 and 65535, was " + port);
        }
        String secret = token != null ? token : System.getenv(TOKEN_ENV);
        if (secret != null && secret.isBlank()) {
            secret = null;
        }
        if (!isLoopback(host) && secret == null) {
            throw new IllegalArgumentException("--host " + host + " is not loopback: give an access token with --token"
                    + " or " + TOKEN_ENV + " (every POST and DELETE must then carry 'Authorization: Bearer <token>')");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (PageStore store = PageStore.open(db); Crawler crawler = new Crawler(store)) {
            int resumed = resumeUnfinished(store, crawler, defaultMode);
            ApiServer server = ApiServer.start(new ApiServer.Settings(host, port, defaultMode, poolSize, secret,
                    !noPinningWatch), crawler);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close(); // no new requests
                try {
                    // In-flight fetches get a grace period to finish and be stored; the jobs stay unfinished
                    // in the database and resume at the next start.
                    crawler.suspend(SHUTDOWN_GRACE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    store.close(); // drain the writer and close H2 here: the JVM halts when hooks return
                    stopped.countDown();
                }
            }));
            out.printf(READY + "http://%s:%d (%s mode by default, pool size %d, db %s)%s%n", host,
                    server.port(), defaultMode.label(), poolSize, db, secret == null ? "" : ", token required");
            if (resumed > 0) {
                out.printf("resumed %d job(s) an earlier process left unfinished%n", resumed);
            }
            out.println("try: curl -s -XPOST localhost:" + server.port()
                    + "/crawl -H 'Content-Type: application/json' -d '{\"seeds\":[\"http://h0.loomcrawl.test:PORT/\"]}'");
            out.flush();
            stopped.await();
        }
        return 0;
    }

    /** Resumes the jobs a stopped process left queued or running; a job whose spec is unreadable fails. */
    static int resumeUnfinished(PageStore store, Crawler crawler, ExecutionMode defaultMode) {
        int resumed = 0;
        for (PageStore.JobRow row : store.unfinishedJobs()) {
            try {
                CrawlRequest spec = Json.read(row.spec(), CrawlRequest.class);
                crawler.resume(row.id(), spec.toConfig(defaultMode, row.poolSize(), Integer.MAX_VALUE));
                resumed++;
            } catch (RuntimeException e) {
                store.updateJob(row.id(), dev.loomcrawl.crawler.JobStatus.FAILED,
                        "{\"error\":\"cannot resume: unreadable job spec\"}");
            }
        }
        return resumed;
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
