package dev.loomcrawl.server;

import dev.loomcrawl.crawler.CrawlJob;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.JobProgress;
import dev.loomcrawl.crawler.values.Outcome;
import dev.loomcrawl.crawler.values.PageRecord;
import dev.loomcrawl.crawler.values.ProcessStats;
import dev.loomcrawl.crawler.values.WebhookStatus;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jetty.JettyConnectionMetrics;
import io.micrometer.core.instrument.binder.jetty.JettyServerThreadPoolMetrics;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.java21.instrument.binder.jdk.VirtualThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.eclipse.jetty.server.Server;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /metrics}: Micrometer's Prometheus registry with the JVM's own binders (memory, GC, threads,
 * classes, CPU, uptime, virtual-thread pinning from JFR), Jetty's connections and thread pool, one timer for
 * HTTP requests by route, and the crawler's figures under {@code loomcrawl_*}.
 *
 * <p>Javalin's own Micrometer plugin has no Javalin 7 release (its last is 6.7), so this class registers
 * what that plugin did, with Micrometer's Jetty binders and an {@code http.server.requests} timer.
 */
final class Metrics implements AutoCloseable {
    /** Bucket bounds of the fetch-latency histogram: a page from a fast host up to the fetch deadline. */
    private static final Duration[] FETCH_BUCKETS = {Duration.ofMillis(50), Duration.ofMillis(100),
            Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};
    private static final String STARTED = "metrics.started";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Crawler crawler;
    private final @Nullable VirtualThreadMetrics virtualThreads;
    private final Timer fetchLatency;
    private final Counter pages;
    private final MultiGauge jobPages;
    private final MultiGauge jobQueued;
    private final MultiGauge jobInFlight;
    private final MultiGauge jobRate;
    private final MultiGauge webhookPending;
    private final MultiGauge webhookFailing;
    /**
     * The crawler's figures, taken once per scrape: {@link Crawler#stats()} copies maps and ranks the busiest
     * hosts, too much to repeat for every gauge.
     */
    private volatile ProcessStats stats;

    Metrics(Crawler crawler, boolean watchPinning) {
        this.crawler = crawler;
        this.stats = crawler.stats();
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        virtualThreads = watchPinning ? new VirtualThreadMetrics() : null;
        if (virtualThreads != null) {
            virtualThreads.bindTo(registry); // jvm_threads_virtual_pinned_seconds, from JFR
        }

        pages = Counter.builder("loomcrawl.pages").description("Pages stored without failure").register(registry);
        fetchLatency = Timer.builder("loomcrawl.fetch.latency")
                .description("Request start to last body byte, of every request that got an answer")
                .serviceLevelObjectives(FETCH_BUCKETS).register(registry);
        crawler.observe(this::stored);
        processGauge("loomcrawl.fetches.in.flight", "Requests in flight now, every job and POST /fetch",
                f -> f.fetching());
        processGauge("loomcrawl.fetch.limit", "Requests in flight the adaptive limit allows now", f -> f.fetchLimit());
        processGauge("loomcrawl.jobs.running", "Jobs running in this process", f -> f.runningJobs());
        processGauge("loomcrawl.platform.threads.peak", "Most live platform threads seen", f -> f.peakPlatformThreads());
        Gauge.builder("loomcrawl.carrier.lag", this, m -> m.stats.carrierLagMillis() / 1_000)
                .description("How late a probe virtual thread wakes: the queue the CPU makes").baseUnit("seconds")
                .register(registry);
        FunctionCounter.builder("loomcrawl.requests", this, m -> m.stats.fetches())
                .description("HTTP requests for pages made by jobs, retries included (robots.txt and sitemaps not)").register(registry);
        FunctionCounter.builder("loomcrawl.retries", this, m -> m.stats.retries())
                .description("Requests that were retries").register(registry);
        for (Change.Kind kind : Change.Kind.values()) {
            FunctionCounter.builder("loomcrawl.changes", this, m -> m.stats.changes().getOrDefault(kind.label(), 0L))
                    .tag("kind", kind.label()).description("Change events stored by continuous jobs and recrawls, by kind")
                    .register(registry);
        }
        FunctionCounter.builder("loomcrawl.virtual.threads.started", this, m -> m.stats.virtualThreadsStarted())
                .description("Virtual threads started by this process").register(registry);
        jobPages = MultiGauge.builder("loomcrawl.job.pages").description("Pages stored by a running job")
                .register(registry);
        jobQueued = MultiGauge.builder("loomcrawl.job.queued").description("URLs a running job has waiting")
                .register(registry);
        jobInFlight = MultiGauge.builder("loomcrawl.job.in.flight").description("Requests a running job has in flight")
                .register(registry);
        jobRate = MultiGauge.builder("loomcrawl.job.requests.per.second")
                .description("A running job's requests per second over the last seconds").register(registry);
        webhookPending = MultiGauge.builder("loomcrawl.job.webhook.pending")
                .description(String.format("Change events a running job's webhook has not delivered (counted up to %,d)",
                        WebhookStatus.COUNTED))
                .register(registry);
        webhookFailing = MultiGauge.builder("loomcrawl.job.webhook.failing.seconds")
                .description("How long a running job's webhook receiver has refused the next event; 0 while it takes them")
                .register(registry);
    }

    private void processGauge(String name, String description, ToDoubleFunction<ProcessStats> value) {
        Gauge.builder(name, this, m -> value.applyAsDouble(m.stats)).description(description).register(registry);
    }

    /** Every stored row of every job: outcome counters and the latency histogram. */
    private void stored(PageRecord row) {
        if (row.failure() == null) {
            pages.increment();
        } else {
            String name = row.outcome() == Outcome.SKIPPED ? "loomcrawl.skips" : "loomcrawl.failures";
            registry.counter(name, "kind", row.failure()).increment();
        }
        if (row.status() > 0) {
            fetchLatency.record((long) (row.fetchMillis() * 1_000_000), TimeUnit.NANOSECONDS);
        }
    }

    /** Jetty's connections and thread pool, once the server exists. */
    void bindJetty(Server server) {
        JettyConnectionMetrics.addToAllConnectors(server, registry);
        new JettyServerThreadPoolMetrics(server.getThreadPool(), Tags.empty()).bindTo(registry);
    }

    /** Before every request. */
    void requestStarted(Context ctx) {
        ctx.attribute(STARTED, System.nanoTime());
    }

    /** After every request, errors included: {@code http_server_requests_seconds{method, uri, status}}. */
    void requestEnded(Context ctx) {
        Long started = ctx.attribute(STARTED);
        if (started == null) {
            return;
        }
        var matched = ctx.endpoints().matchedHttpEndpoint();
        String uri = matched != null ? matched.path : ctx.status().getCode() == 404 ? "NOT_FOUND" : "UNKNOWN";
        Timer.builder("http.server.requests").description("HTTP requests to this server")
                .tags("method", ctx.method().name(), "uri", uri, "status", Integer.toString(ctx.status().getCode()))
                .register(registry).record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }

    /** The Prometheus text exposition, per-job gauges refreshed first. */
    String scrape() {
        stats = crawler.stats();
        List<MultiGauge.Row<?>> pagesRows = new ArrayList<>();
        List<MultiGauge.Row<?>> queuedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> inFlightRows = new ArrayList<>();
        List<MultiGauge.Row<?>> rateRows = new ArrayList<>();
        List<MultiGauge.Row<?>> pendingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> failingRows = new ArrayList<>();
        Instant now = Instant.now();
        for (CrawlJob job : crawler.running()) {
            JobProgress p = job.progress();
            Tags tags = Tags.of("job", Long.toString(job.id()), "mode", job.config().execution().mode().label());
            pagesRows.add(MultiGauge.Row.of(tags, p.pages()));
            queuedRows.add(MultiGauge.Row.of(tags, p.queued()));
            inFlightRows.add(MultiGauge.Row.of(tags, p.fetching()));
            rateRows.add(MultiGauge.Row.of(tags, p.recentPagesPerSecond()));
            WebhookStatus webhook = job.webhook();
            if (webhook != null) {
                pendingRows.add(MultiGauge.Row.of(tags, webhook.pending()));
                failingRows.add(MultiGauge.Row.of(tags, webhook.failingFor(now).toMillis() / 1000.0));
            }
        }
        jobPages.register(pagesRows, true);
        jobQueued.register(queuedRows, true);
        jobInFlight.register(inFlightRows, true);
        jobRate.register(rateRows, true);
        webhookPending.register(pendingRows, true);
        webhookFailing.register(failingRows, true);
        return registry.scrape();
    }

    /** Pinned-virtual-thread events over 20 ms seen by JFR, for {@code /stats}. */
    long pinnedEvents() {
        Timer pinned = registry.find("jvm.threads.virtual.pinned").timer();
        return pinned == null ? 0 : pinned.count();
    }

    Map<String, String> contentType() {
        return Map.of("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    }

    @Override
    public void close() {
        if (virtualThreads != null) {
            virtualThreads.close();
        }
        registry.close();
    }
}
