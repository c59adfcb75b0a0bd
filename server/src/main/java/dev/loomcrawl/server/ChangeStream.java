package dev.loomcrawl.server;

import dev.loomcrawl.crawler.Database;
import dev.loomcrawl.crawler.values.Change;
import dev.loomcrawl.crawler.values.Export;
import io.javalin.http.Context;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.List;

/**
 * {@code GET /crawl/{id}/changes}: a job's change events as Server-Sent Events, each {@code event: change},
 * {@code id:} the event's id, {@code data:} the event as JSON. It starts after the event named by the
 * {@code Last-Event-ID} header (a client that reconnects misses nothing) or the {@code after} query parameter,
 * else from the job's first event, and follows the job's events as they are stored until the client goes.
 * The events are read from the store, so every node of a cluster and every restart sees the same stream.
 */
final class ChangeStream {
    private static final Duration POLL = Duration.ofMillis(250);
    /** A comment this often tells a client the stream lives, and tells us when it has gone. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(10);
    private static final int READ = 500;

    private final Database db;

    ChangeStream(Database db) {
        this.db = db;
    }

    /** Streams job {@code id}'s events to the client of {@code ctx} (its job known to exist). */
    void stream(Context ctx, long id) throws Exception {
        long after = start(ctx);
        // Javalin's SseHandler answers only a request that asks for text/event-stream, and runs the stream on its
        // async pool; the headers are set here instead, for any client (curl too), on this request's own virtual
        // thread, which the stream's blocking loop may hold as long as the client stays.
        ctx.status(200).contentType("text/event-stream; charset=utf-8").header("Cache-Control", "no-cache")
                .header("X-Accel-Buffering", "no");
        ctx.res().flushBuffer();
        try (SseClient client = new SseClient(ctx)) {
            follow(client, id, after);
        }
    }

    private static long start(Context ctx) {
        String last = ctx.header("Last-Event-ID");
        String param = last != null ? last : ctx.queryParam("after");
        if (param == null || param.isBlank()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(param.strip()));
        } catch (NumberFormatException e) {
            throw ApiError.badRequest((last != null ? "Last-Event-ID" : "after") + " must be an event id (a whole"
                    + " number), was '" + param + "'", last != null ? "Last-Event-ID" : "after");
        }
    }

    private void follow(SseClient client, long id, long after) {
        long last = after;
        long quietSince = System.nanoTime();
        try {
            while (!client.terminated()) {
                List<Change> events = db.changesAfter(id, last, READ);
                for (Change event : events) {
                    client.sendEvent("change", Export.json(Export.rowOf(event)), String.valueOf(event.id()));
                    last = event.id();
                }
                if (!events.isEmpty()) {
                    quietSince = System.nanoTime();
                    continue;
                }
                if (System.nanoTime() - quietSince > HEARTBEAT.toNanos()) {
                    client.sendComment("alive");
                    quietSince = System.nanoTime();
                }
                Thread.sleep(POLL); // new events are stored by the crawl's writer; the store is polled
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping
        }
    }
}
