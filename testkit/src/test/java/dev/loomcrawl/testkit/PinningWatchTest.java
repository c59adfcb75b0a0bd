package dev.loomcrawl.testkit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The watch must be able to fail a test: a virtual thread blocked while it pins fails the test it ran in. */
class PinningWatchTest {

    @Test
    void aTestWhoseVirtualThreadPinsFails() {
        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Pins.class)).execute().testEvents();
        tests.assertStatistics(stats -> stats.started(1).failed(1));
        tests.failed().assertThatEvents().singleElement().satisfies(event -> org.assertj.core.api.Assertions
                .assertThat(event.getPayload().orElseThrow().toString()).contains("pinned their carrier"));
    }

    @Test
    void aTestWhoseVirtualThreadsOnlyParkPasses() {
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Parks.class)).execute().testEvents()
                .assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    /** Run only through the test kit above. */
    @ExtendWith(PinningWatch.class)
    static class Pins {
        /** Blocking in a class initializer pins the carrier, on JDK 24+ as before (JEP 491 freed only monitors). */
        static final class SlowToInitialise {
            static {
                try {
                    Thread.sleep(Duration.ofMillis(100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            static void touch() {}
        }

        @Test
        void pins() throws Exception {
            Thread.ofVirtual().start(SlowToInitialise::touch).join();
        }
    }

    @ExtendWith(PinningWatch.class)
    static class Parks {
        @Test
        void parks() throws Exception {
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(Duration.ofMillis(100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }).join();
        }
    }
}
