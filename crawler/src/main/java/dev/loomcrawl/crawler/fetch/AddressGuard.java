package dev.loomcrawl.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The private-address guard inside the resolver the HTTP client itself uses (the JDK's resolver SPI), so that
 * the address checked is the address connected to. A check made before the request, by a lookup of its own,
 * leaves a gap: the client resolves the name again to connect, and a DNS answer that changed in between (DNS
 * rebinding) takes it to a private address the check never saw.
 *
 * <p>While a fetch that refuses private addresses is under way for a name ({@link #guard}), every lookup of
 * that name in the process, the client's included, returns only the public addresses of the answer, and fails
 * when there are none. Other names resolve as before. The lookups are the next provider's on the class path, if
 * there is one, else the JDK's own.
 */
public final class AddressGuard extends InetAddressResolverProvider {
    private static final ConcurrentHashMap<String, AtomicInteger> GUARDED = new ConcurrentHashMap<>();
    /**
     * The last refusal of each guarded name: the HTTP client turns a failed lookup into an unresolved address
     * and reports that, not the resolver's reason.
     */
    private static final ConcurrentHashMap<String, String> REFUSALS = new ConcurrentHashMap<>();
    private static volatile boolean installed;

    /** A name guarded until {@link #close}. */
    public static final class Guarded implements AutoCloseable {
        private final String name;

        private Guarded(String name) {
            this.name = name;
        }

        /** Why a lookup of the name was refused while guarded, or null. */
        public @Nullable String refusal() {
            return REFUSALS.get(name);
        }

        @Override
        public void close() {
            GUARDED.computeIfPresent(name, (k, count) -> {
                if (count.decrementAndGet() > 0) {
                    return count;
                }
                REFUSALS.remove(name);
                return null;
            });
        }
    }

    /** Guards {@code host} (a name or an address literal) until the result is closed. */
    public static Guarded guard(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        GUARDED.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        return new Guarded(name);
    }

    /** A request sent under the guard. */
    @FunctionalInterface
    interface Exchange<T, X extends Exception> {
        T send() throws InterruptedException, X;
    }

    /**
     * {@code exchange} with {@code host}, unless the name resolves to a private address: it is looked up first, and
     * guarded while the request goes (the client's own lookup included), so an exchange that failed because that
     * lookup met an answer turned private is refused too. The one rule of every request a job sends under the
     * guard: its fetches and its webhook's deliveries.
     *
     * @param failed whether a result is a failure, which the guard may have caused
     * @param refused the result that says why the guard refused the exchange
     */
    static <T, X extends Exception> T send(String host, Exchange<T, X> exchange, Predicate<T> failed,
            Function<String, T> refused) throws InterruptedException, X {
        try (Guarded guarded = guard(host)) {
            String why = HostNames.privateAddress(host);
            if (why == null) {
                T result = exchange.send();
                why = failed.test(result) ? guarded.refusal() : null;
                if (why == null) {
                    return result;
                }
            }
            return refused.apply(why);
        }
    }

    /**
     * Whether this resolver is the process's: the JDK takes the first provider on the class path. A test lab's
     * own provider after it is chained, not lost.
     */
    public static boolean installed() {
        try {
            InetAddress.getByName("localhost"); // the JDK picks its provider at the first lookup
        } catch (UnknownHostException e) {
            // whether it resolves says nothing of which resolver asked
        }
        return installed;
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver next = ServiceLoader.load(InetAddressResolverProvider.class).stream()
                .filter(provider -> provider.type() != AddressGuard.class).findFirst() // not this one again
                .map(provider -> provider.get().get(configuration)).orElse(configuration.builtinResolver());
        installed = true;
        return resolver(next);
    }

    /** The guard in front of {@code next}. */
    static InetAddressResolver resolver(InetAddressResolver next) {
        return new Resolver(next);
    }

    @Override
    public String name() {
        return "loomcrawl private-address guard";
    }

    private record Resolver(InetAddressResolver next) implements InetAddressResolver {
        @Override
        public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
            Stream<InetAddress> answer = next.lookupByName(host, policy);
            if (!GUARDED.containsKey(host.toLowerCase(Locale.ROOT))) {
                return answer;
            }
            List<InetAddress> all = answer.toList();
            List<InetAddress> open = all.stream().filter(a -> !HostNames.isPrivate(a)).toList();
            if (open.isEmpty()) {
                String refusal = HostNames.refusal(host, all.getFirst());
                REFUSALS.put(host.toLowerCase(Locale.ROOT), refusal);
                throw new UnknownHostException(refusal);
            }
            return open.stream();
        }

        @Override
        public String lookupByAddress(byte[] address) throws UnknownHostException {
            return next.lookupByAddress(address);
        }
    }
}
