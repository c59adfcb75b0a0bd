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
}
