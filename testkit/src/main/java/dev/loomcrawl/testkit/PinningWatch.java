package dev.loomcrawl.testkit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when a virtual thread pins its carrier while blocked, as Helidon's test kit does: JFR's
 * {@code jdk.VirtualThreadPinned} events are streamed in-process while each test runs (the old
 * {@code -Djdk.tracePinnedThreads} does nothing since JDK 24). Use with {@code @ExtendWith(PinningWatch.class)}.
 */
public final class PinningWatch implements BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(PinningWatch.class);

    private record Watch(RecordingStream stream, List<String> pinned) {}

    @Override
    public void beforeEach(ExtensionContext context) {
        List<String> pinned = new CopyOnWriteArrayList<>();
        RecordingStream stream = new RecordingStream();
        // Pins that block for long: JFR's own default threshold. Shorter ones are warm-up noise in the JDK
        // and libraries (a monitor contended while classes load), not blocking I/O under a lock.
        stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(20)).withStackTrace();
        stream.onEvent("jdk.VirtualThreadPinned", event -> {
            if (!classInitialization(event)) {
                pinned.add(describe(event));
            }
        });
        stream.startAsync();
        context.getStore(NS).put("watch", new Watch(stream, pinned));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Watch watch = context.getStore(NS).remove("watch", Watch.class);
        if (watch == null) {
            return;
        }
        try {
            watch.stream().stop(); // flushes: events of this test are in before it returns
        } finally {
            watch.stream().close();
        }
        if (!watch.pinned().isEmpty()) {
            throw new AssertionError(watch.pinned().size() + " virtual thread(s) pinned their carrier while blocked:\n"
                    + String.join("\n", watch.pinned().subList(0, Math.min(3, watch.pinned().size()))));
        }
    }

    /**
     * A virtual thread that waits while another initialises a class pins its carrier (still so in JDK 25): a
     * one-time wait the first time several threads meet a class, not a pattern of our code, so not counted.
     */
    private static boolean classInitialization(RecordedEvent event) {
        return event.hasField("pinnedReason") && String.valueOf(event.getString("pinnedReason"))
                .startsWith("Waited for initialization of");
    }

    private static String describe(RecordedEvent event) {
        StringBuilder b = new StringBuilder("  pinned for " + event.getDuration().toMillis() + " ms");
        for (String field : new String[] {"pinnedReason", "blockingOperation"}) {
            if (event.hasField(field)) {
                b.append(", ").append(field).append(": ").append(event.getString(field));
            }
        }
        if (event.getStackTrace() != null) {
            for (RecordedFrame frame : event.getStackTrace().getFrames().subList(0,
                    Math.min(8, event.getStackTrace().getFrames().size()))) {
                b.append("\n    at ").append(frame.getMethod().getType().getName()).append('.')
                        .append(frame.getMethod().getName()).append(':').append(frame.getLineNumber());
            }
        }
        return b.toString();
    }
}
