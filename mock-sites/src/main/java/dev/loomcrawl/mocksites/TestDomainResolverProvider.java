package dev.loomcrawl.mocksites;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Resolves {@code *.loomcrawl.test} to 127.0.0.1 in any JVM with this jar on its class path (JDK 18+
 * resolver SPI), and hands every other name to the JDK's own resolver. So the farm's thousands of hosts
 * are real, distinct host names to a crawler, without touching {@code /etc/hosts}.
 *
 * <p>A name ending {@code .aN.loomcrawl.test} resolves to {@code 127.0.0.N} instead ({@link #onAddress}): many
 * names on one loopback address, as names share a server on shared hosting or behind a CDN.
 */
public final class TestDomainResolverProvider extends InetAddressResolverProvider {
    private static final String SUFFIX = "." + SiteGraph.DOMAIN;
    private static final Pattern ON_ADDRESS = Pattern.compile(".+\\.a(\\d{1,3})\\." + Pattern.quote(SiteGraph.DOMAIN));

    /** The name {@code name.aN.loomcrawl.test}, which resolves to {@code 127.0.0.N}. */
    public static String onAddress(String name, int n) {
        return name + ".a" + n + SUFFIX;
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                if (host.toLowerCase(Locale.ROOT).endsWith(SUFFIX)) {
                    if ((policy.characteristics() & LookupPolicy.IPV4) == 0) {
                        throw new UnknownHostException(host + " (only IPv4 is served for " + SUFFIX + ")");
                    }
                    Matcher on = ON_ADDRESS.matcher(host.toLowerCase(Locale.ROOT));
                    byte last = on.matches() ? (byte) Integer.parseInt(on.group(1)) : 1;
                    return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, last}));
                }
                return builtin.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return builtin.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "loomcrawl .test resolver";
    }
}
