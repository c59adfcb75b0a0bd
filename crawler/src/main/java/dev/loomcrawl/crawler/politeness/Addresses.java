package dev.loomcrawl.crawler.politeness;

import dev.loomcrawl.crawler.url.Hosts;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The address each host name resolves to, for {@link PolitenessKey#IP}: looked up on a virtual thread of its
 * own (a frontier holds its lock while it asks, and DNS is blocking I/O), kept for {@link #TTL}. The lookup
 * goes through {@link InetAddress}, whose own cache (30 s by default, {@code networkaddress.cache.ttl})
 * then answers the fetch's lookup of the same name: the request goes to the address its limit was taken on.
 *
 * <p>A name that does not resolve is its own key: its fetch fails and says why.
 */
public final class Addresses {
    static final Duration TTL = Duration.ofSeconds(30);

    private record Known(String address, long until) {}

    private final ConcurrentHashMap<String, Known> known = new ConcurrentHashMap<>();
    /** Lookups under way, with whoever waits for each. */
    private final ConcurrentHashMap<String, List<Consumer<String>>> looking = new ConcurrentHashMap<>();

    /**
     * The address key of {@code host} if it is known and fresh; else null, and {@code whenKnown} is called
     * with the host once a lookup (started now unless one is under way) has an answer.
     */
    public @Nullable String of(String host, Consumer<String> whenKnown) {
        if (literal(host)) {
            return host;
        }
        Known k = known.get(host);
        if (k != null && k.until - System.nanoTime() > 0) {
            return k.address;
        }
        if (k != null) {
            start(host, h -> { }); // stale: renewed in the background, and meanwhile still the best answer
            return k.address;
        }
        start(host, whenKnown);
        return null;
    }

    /** The address key of {@code host} as last looked up, fresh or not; null if never. Asks no DNS. */
    @Nullable String known(String host) {
        if (literal(host)) {
            return host;
        }
        Known k = known.get(host);
        return k == null ? null : k.address;
    }

    /** An address literal is its own address. */
    private static boolean literal(String host) {
        return host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    }

    private void start(String host, Consumer<String> whenKnown) {
        boolean[] first = new boolean[1];
        looking.compute(host, (h, waiting) -> {
            first[0] = waiting == null;
            List<Consumer<String>> list = waiting == null ? new ArrayList<>() : waiting;
            list.add(whenKnown);
            return list;
        });
        if (first[0]) {
            Thread.ofVirtual().name("resolve-" + host).start(() -> {
                known.put(host, new Known(lookUp(host), System.nanoTime() + TTL.toNanos()));
                List<Consumer<String>> waiting = looking.remove(host); // after the answer is in: none misses it
                if (waiting != null) {
                    waiting.forEach(waiter -> waiter.accept(host));
                }
            });
        }
    }

    /** The address key of {@code host}, waiting for the lookup if need be (one-off fetches, on their own thread). */
    public String resolve(String host) {
        String address = of(host, h -> { });
        if (address != null) {
            return address;
        }
        String now = lookUp(host);
        known.put(host, new Known(now, System.nanoTime() + TTL.toNanos()));
        return now;
    }

    static String lookUp(String host) {
        try {
            return Hosts.of(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            return host;
        }
    }
}
