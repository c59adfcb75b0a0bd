package dev.loomcrawl.mocksites;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Resolves {@code *.loomcrawl.test} to 127.0.0.1 in any JVM with this jar on its class path (JDK 18+
 * resolver SPI), and hands every other name to the JDK's own resolver. So the farm's thousands of hosts
 * are real, distinct host names to a crawler, without touching {@code /etc/hosts}.
 */
public final class TestDomainResolverProvider extends InetAddressResolverProvider {
    private static final String SUFFIX = "." + SiteGraph.DOMAIN;

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        InetAddress loopback;
        try {
            loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                if (host.toLowerCase(Locale.ROOT).endsWith(SUFFIX)) {
                    if ((policy.characteristics() & LookupPolicy.IPV4) == 0) {
                        throw new UnknownHostException(host + " (only IPv4 is served for " + SUFFIX + ")");
                    }
                    return Stream.of(InetAddress.getByAddress(host, loopback.getAddress()));
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
