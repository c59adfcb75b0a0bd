package dev.loomcrawl.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Whether a host's name exists, asked once per {@link #TTL} for the whole process, before the HTTP client
 * asks. DNS saying "no such name" is final for every URL of the host; "try again later" is not. The JDK
 * caches failed lookups for 10 s and then answers without the resolver's reason, so only the first lookup
 * can tell the two apart: this class makes sure it is ours, and remembers what it said. That cache being
 * the JVM's, so is this record: one {@link #JVM} instance, shared by every crawler of the process.
 */
public final class HostNames {
    static final Duration TTL = Duration.ofMinutes(1);
    public static final HostNames JVM = new HostNames();

    private record Verdict(@Nullable String unknown, long until) {}

    private final ConcurrentHashMap<String, Verdict> verdicts = new ConcurrentHashMap<>();

    private HostNames() {}

    /** "unknown host: ..." when DNS has no such name; null when it resolves or may later. */
    @Nullable String unknown(String host) {
        long now = System.nanoTime();
        Verdict v = verdicts.get(host);
        if (v == null || v.until - now < 0) {
            v = new Verdict(lookUp(host), now + TTL.toNanos());
            verdicts.put(host, v);
        }
        return v.unknown;
    }

    static @Nullable String lookUp(String host) {
        if (host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
            return null; // an IP literal is never looked up
        }
        try {
            InetAddress.getAllByName(host);
            return null;
        } catch (UnknownHostException e) {
            String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            boolean noSuchName = message.contains("name or service not known") || message.contains("nodename nor servname")
                    || message.contains("no address associated") || message.contains("no such host");
            return noSuchName ? "unknown host: " + host + " (DNS has no such name)" : null;
        }
    }

    /**
     * Why {@code host} must not be fetched on a public-web crawl, or null: an address literal that is private, or
     * a name whose answer holds only private addresses. Asked under {@link AddressGuard#guard}, the same lookup
     * the HTTP client makes to connect, so a name is refused or connected to a public address, whatever DNS
     * answers in between.
     */
    public static @Nullable String privateAddress(String host) {
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            for (InetAddress address : InetAddress.getAllByName(name)) {
                if (isPrivate(address)) {
                    return refusal(host, address);
                }
            }
            return null;
        } catch (UnknownHostException e) {
            String message = String.valueOf(e.getMessage());
            return message.startsWith("refused: ") ? message : null; // else the fetch fails to connect, and says so
        }
    }

    static @Nullable String refusal(String host, InetAddress address) {
        return "refused: " + host + " resolves to private address " + address.getHostAddress();
    }

    /**
     * Loopback, private, link-local, unique-local (fc00::/7), any-local and multicast addresses, and the IPv4
     * ranges no public server answers on: "this network" (0.0.0.0/8), shared address space (100.64.0.0/10), IETF
     * protocol assignments (192.0.0.0/24), benchmarking (198.18.0.0/15), reserved and broadcast (240.0.0.0/4); an
     * IPv4 address inside NAT64's 64:ff9b::/96 or 6to4's 2002::/16 is judged as itself.
     */
    static boolean isPrivate(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 16 && (b[0] == 0x20 && b[1] == 0x02 || isNat64(b))) {
            int at = b[0] == 0x20 ? 2 : 12;
            try {
                return isPrivate(InetAddress.getByAddress(new byte[] {b[at], b[at + 1], b[at + 2], b[at + 3]}));
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e); // four bytes are always an address
            }
        }
        boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6
                || b.length == 4 && unroutable(b[0] & 0xff, b[1] & 0xff, b[2] & 0xff);
    }

    private static boolean unroutable(int a, int b, int c) {
        return a == 0 || a == 100 && (b & 0xc0) == 64 || a == 192 && b == 0 && c == 0 || a == 198 && (b & 0xfe) == 18
                || a >= 240;
    }

    private static boolean isNat64(byte[] b) {
        byte[] prefix = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
        return Arrays.equals(b, 0, 12, prefix, 0, 12);
    }
}
