package dev.loomcrawl.crawler.politeness;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The tests' resolver (registered for the test class path only): any name ending {@code .aN.test} resolves to
 * {@code 127.0.0.N}, so that many host names share one loopback address, as names share a server on shared
 * hosting. Every other name goes to the JDK's own resolver.
 */
public final class LoopbackNames extends InetAddressResolverProvider {
    private static final Pattern NAME = Pattern.compile("(?:[a-z0-9-]+\\.)+a(\\d{1,3})\\.test");

    /** The name of host {@code name} on {@code 127.0.0.address}: {@code name.aN.test}. */
    public static String on(String name, int address) {
        return name + ".a" + address + ".test";
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver jdk = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                Matcher m = NAME.matcher(host);
                if (m.matches()) {
                    return Stream.of(InetAddress.getByAddress(host, new byte[] {127, 0, 0, (byte) Integer.parseInt(m.group(1))}));
                }
                return jdk.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return jdk.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "loopback-names";
    }
}
