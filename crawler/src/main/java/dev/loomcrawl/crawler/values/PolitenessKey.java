package dev.loomcrawl.crawler.values;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.Locale;

/**
 * What one politeness limit covers: a host name ({@code host:port}, the default), a registered domain by the
 * Public Suffix List (every {@code *.example.co.uk} shares one limit), or the address a name resolves to
 * (names on one address share one limit). A server operator sees an address, not a name: on shared hosting
 * or behind a CDN, a limit per name multiplies the load on one machine.
 *
 * <p>Keys of the three kinds never collide: a host key always has a port ({@code www.example.com:443}), a
 * domain never has one ({@code example.com}), and an address is a literal ({@code 93.184.216.34},
 * {@code [2001:db8::1]}).
 */
public enum PolitenessKey {
    HOST, DOMAIN, IP;

    /** The lower-case name used in flags and JSON: {@code host}, {@code domain}, {@code ip}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code host}, {@code domain} or {@code ip}, case-insensitively, as a mode and a content format are.
     *
     * @throws ConfigException naming {@code field} when {@code value} is none of them
     */
    public static PolitenessKey parse(String field, String value) {
        for (PolitenessKey key : values()) {
            if (key.name().equalsIgnoreCase(value == null ? "" : value.strip())) {
                return key;
            }
        }
        throw new ConfigException(field, value, "must be host, domain or ip, was '" + value + "'");
    }

    /**
     * The registered domain of {@code host} ({@code a.b.example.co.uk} gives {@code example.co.uk}); the host
     * itself when it has none (an address, {@code localhost}, a name under no known suffix).
     */
    public static String domainOf(String host) {
        if (host.startsWith("[") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
            return host;
        }
        String domain = EffectiveTldFinder.getAssignedDomain(host, true, false);
        return domain == null || domain.isEmpty() ? host : domain;
    }

    /** Whether {@code domain} is itself a suffix of the Public Suffix List ({@code com}, {@code co.uk}). */
    public static boolean publicSuffix(String domain) {
        EffectiveTldFinder.EffectiveTLD tld = EffectiveTldFinder.getEffectiveTLD(domain);
        return tld != null && tld.getDomain().equals(domain);
    }

    /** The kind a key given by a user belongs to: {@code host:port}, an address literal, or a domain. */
    public static PolitenessKey kindOf(String key) {
        if (key.startsWith("[") && key.endsWith("]") || key.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
            return IP;
        }
        return key.indexOf(':') >= 0 ? HOST : DOMAIN;
    }
}
