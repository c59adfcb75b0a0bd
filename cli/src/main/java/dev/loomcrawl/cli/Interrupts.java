package dev.loomcrawl.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Ctrl-C for a crawl in the foreground: the first suspends the job (fetches in flight finish and are
 * stored, the job stays resumable), the second stops at once (what was in flight is fetched again on
 * resume). The JVM's own handling would start shutting down on the first and leave the second nowhere.
 *
 * <p>It installs a handler for SIGINT through {@code sun.misc.Signal} (module {@code jdk.unsupported}),
 * reached by reflection so the build stays free of internal-API warnings; where that is missing, Ctrl-C
 * falls back to the shutdown hook, which suspends gracefully.
 */
final class Interrupts {

    /** What to do on the first and on a second Ctrl-C. */
    interface Actions {
        void first();

        void second();
    }

    private final AtomicInteger count = new AtomicInteger();
    private final Object previous;

    private Interrupts(Object previous) {
        this.previous = previous;
    }

    /** Installs the handler; returns null where signals cannot be handled here. */
    static @Nullable Interrupts install(Actions actions) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object sigint = signal.getConstructor(String.class).newInstance("INT");
            AtomicInteger[] counter = new AtomicInteger[1];
            InvocationHandler onSignal = (proxy, method, args) -> {
                if (method.getName().equals("handle")) {
                    int n = counter[0].incrementAndGet();
                    Thread.ofVirtual().name("interrupt-" + n).start(n == 1 ? actions::first : actions::second);
                }
                return null;
            };
            Object proxy = Proxy.newProxyInstance(Interrupts.class.getClassLoader(), new Class<?>[] {handler}, onSignal);
            Object previous = signal.getMethod("handle", signal, handler).invoke(null, sigint, proxy);
            Interrupts installed = new Interrupts(previous);
            counter[0] = installed.count;
            return installed;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Puts back the JVM's own handling. */
    void uninstall() {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance("INT"),
                    previous);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // leaving ours installed does no harm: the job has ended
        }
    }

    boolean triggered() {
        return count.get() > 0;
    }
}
