package dev.loomcrawl.crawler.politeness;

import crawlercommons.domains.EffectiveTldFinder;
import dev.loomcrawl.crawler.url.Hosts;
import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.PolitenessKey;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether a politeness key an operator gives ({@code PUT /hosts/{key}}) can ever match a request, and its one
 * spelling: the spelling the crawler itself derives from a URL, so that a stored setting binds. A key that
 * could never match is refused with the reason, never stored: a pause on it would pause nothing.
 */
public final class KeySyntax {
    /**
     * RFC 1123's label, stricter than what a URL's host may be (the URL Standard lets a hyphen start a label): a key is
     * typed by an operator, and one that starts with a hyphen is taken for a typo rather than stored.
     */
    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");
    private KeySyntax() {}

    /**
     * The key as the crawler spells it ({@link Hosts}): lower case, an IDN in its ASCII form (UTS #46), an IPv6
     * address compressed.
     *
     * @throws ConfigException naming {@code key}, with why no request could ever count under it
     */
    public static String canonical(String given) {
        String key = given.strip().toLowerCase(Locale.ROOT);
        if (key.isEmpty() || key.length() > 300 || key.chars().anyMatch(Character::isWhitespace)) {
            throw refused(given, "must be a host:port, a registered domain or an address");
        }
        return switch (PolitenessKey.kindOf(key)) {
            case IP -> address(given, key);
            case HOST -> hostAndPort(given, key);
            case DOMAIN -> domain(given, key);
        };
    }

    private static String hostAndPort(String given, String key) {
        int colon = key.lastIndexOf(':');
        String host = key.substring(0, colon);
        String port = key.substring(colon + 1);
        if (host.startsWith("[") && !host.endsWith("]") || !host.startsWith("[") && host.indexOf(':') >= 0) {
            throw refused(given, "must put an IPv6 address in brackets: [2001:db8::1]:443");
        }
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65_535) {
            throw refused(given, "must end with a port from 1 to 65535 (host:port), was '" + port + "'");
        }
        String canonicalHost = PolitenessKey.kindOf(host) == PolitenessKey.IP ? address(given, host) : name(given, host);
        return canonicalHost + ":" + Integer.parseInt(port);
    }

    private static String domain(String given, String key) {
        String name = name(given, key);
        String registered = EffectiveTldFinder.getAssignedDomain(name, true, false);
        if (registered == null || registered.isEmpty()) {
            throw refused(given, PolitenessKey.publicSuffix(name)
                    ? "is a public suffix, not a registered domain: a domain key is one registrant's domain (example.co.uk)"
                    : "is under no suffix of the Public Suffix List, so no host has it as its domain; use host:port"
                            + " keys or --politeness-key=ip");
        }
        if (!registered.equals(name)) {
            throw refused(given, "is not a registered domain; its domain key is " + registered
                    + " (or use the host key " + name + ":443)");
        }
        return name;
    }

    private static String name(String given, String host) {
        String ascii;
        try {
            ascii = Hosts.canonical(host);
        } catch (IllegalArgumentException e) {
            throw refused(given, "is not a host name: " + e.getMessage());
        }
        if (ascii.length() > 253 || ascii.endsWith(".")) {
            throw refused(given, "is not a host name (at most 253 characters, no trailing dot)");
        }
        for (String label : ascii.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                throw refused(given, "is not a host name: each dot-separated label is 1 to 63 letters, digits or"
                        + " hyphens, not starting or ending with a hyphen");
            }
        }
        return ascii;
    }

    /** A dotted-quad IPv4 address, or an IPv6 address in brackets, compressed as the crawler spells it. */
    private static String address(String given, String key) {
        if (key.startsWith("[") && key.endsWith("]") && key.length() > 2 && key.indexOf(':') > 0) {
            try {
                return Hosts.canonical(key);
            } catch (IllegalArgumentException e) {
                throw refused(given, "is not an IPv6 address: " + e.getMessage());
            }
        }
        // a leading zero is octal to a browser and decimal to others: such a key would mean two addresses
        String[] parts = key.split("\\.", -1);
        boolean dottedQuad = parts.length == 4 && Arrays.stream(parts)
                .allMatch(part -> part.matches("0|[1-9][0-9]{0,2}") && Integer.parseInt(part) <= 255);
        if (!dottedQuad) {
            throw refused(given, "is not an IPv4 address: four numbers from 0 to 255 without leading zeros,"
                    + " such as 192.0.2.1");
        }
        return key;
    }

    private static ConfigException refused(String given, String why) {
        return new ConfigException("key", given, "'" + given + "' " + why);
    }
}
