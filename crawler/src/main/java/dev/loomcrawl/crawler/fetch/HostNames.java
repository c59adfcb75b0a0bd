package dev.loomcrawl.crawler.fetch;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

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

    private record Verdict(String unknown, long until) {}

    private final ConcurrentHashMap<String, Verdict> verdicts = new ConcurrentHashMap<>();

    private HostNames() {}

    /** "unknown host: ..." when DNS has no such name; null when it resolves or may later. */
    String unknown(String host) {
        long now = System.nanoTime();
        Verdict v = verdicts.get(host);
        if (v == null || v.until - now < 0) {
            v = new Verdict(lookUp(host), now + TTL.toNanos());
            verdicts.put(host, v);
        }
        return v.unknown;
    }

    static String lookUp(String host) {
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
    public static String privateAddress(String host) {
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

    static String refusal(String host, InetAddress address) {
        return "refused: " + host + " resolves to private address " + address.getHostAddress();
    }

    /** Loopback, private, link-local, unique-local (fc00::/7), any-local and multicast addresses. */
    static boolean isPrivate(InetAddress address) {
        byte[] b = address.getAddress();
        boolean uniqueLocalV6 = b.length == 16 && (b[0] & 0xfe) == 0xfc;
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocalV6;
    }
}
