package dev.loomcrawl.crawler.url;

import com.ibm.icu.text.IDNA;
import java.net.InetAddress;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The URL Standard's host parser for http(s) URLs, and the one spelling of a host it gives: a domain as IDNA
 * (UTS #46, non-transitional) makes it ASCII and lower case, an IPv4 address written in any form a resolver
 * accepts ({@code 2130706433}, {@code 0x7f.1}, {@code 127.1}, a trailing dot) as a dotted quad, an IPv6 address
 * compressed ({@code [::7f00:1]}). Two spellings of one host are one string, so the seen-set, politeness keys,
 * robots.txt and scope all see one host.
 */
public final class Hosts {
    /**
     * UTS #46 as the standard asks: non-transitional ({@code ß} stays {@code ß}), the Bidi and ContextJ rules;
     * not STD3's ASCII rules, hyphen placement or DNS lengths (their errors are ignored below). In a holder of
     * its own: ICU loads its tables when first asked, and a crawl of ASCII names never asks.
     */
    private static final class Idna {
        static final IDNA UTS46 = IDNA.getUTS46Instance(
                IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.NONTRANSITIONAL_TO_UNICODE | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);
        static final Set<IDNA.Error> NOT_CHECKED = EnumSet.of(IDNA.Error.LEADING_HYPHEN,
                IDNA.Error.TRAILING_HYPHEN, IDNA.Error.HYPHEN_3_4, IDNA.Error.EMPTY_LABEL, IDNA.Error.LABEL_TOO_LONG,
                IDNA.Error.DOMAIN_NAME_TOO_LONG);
    }

    private Hosts() {}

    /**
     * {@code input}, a host as written in a URL, in its one spelling.
     *
     * @throws IllegalArgumentException saying why the standard refuses it
     */
    public static String canonical(String input) {
        try {
            return parse(input);
        } catch (InvalidUrlException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    /** A resolved address in the spelling a URL's host has: a dotted quad, or a compressed IPv6 address in brackets. */
    public static String of(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 4) {
            return address.getHostAddress();
        }
        int[] pieces = new int[8];
        for (int i = 0; i < 8; i++) {
            pieces[i] = (bytes[2 * i] & 0xff) << 8 | bytes[2 * i + 1] & 0xff;
        }
        return "[" + Ipv6.serialise(pieces) + "]";
    }

    /** The host parser of a special URL; {@link InvalidUrlException} where the standard returns failure. */
    static String parse(String input) {
        if (input.startsWith("[")) {
            if (!input.endsWith("]")) {
                throw new InvalidUrlException("unclosed IPv6 address");
            }
            return "[" + Ipv6.serialise(Ipv6.parse(input.substring(1, input.length() - 1))) + "]";
        }
        String ascii = toAscii(PercentEncoding.decode(input));
        for (int i = 0; i < ascii.length(); i++) {
            if (forbiddenInDomain(ascii.charAt(i))) {
                throw new InvalidUrlException("the host holds the character " + describe(ascii.charAt(i)));
            }
        }
        return endsInANumber(ascii) ? Ipv4.serialise(Ipv4.parse(ascii)) : ascii;
    }

    /** The standard's "domain to ASCII", with its shortcut for ASCII names that hold no {@code xn--} label. */
    private static String toAscii(String domain) {
        if (isAscii(domain) && !hasAceLabel(domain)) {
            return domain.toLowerCase(Locale.ROOT);
        }
        StringBuilder out = new StringBuilder(domain.length() + 8);
        IDNA.Info info = new IDNA.Info();
        Idna.UTS46.nameToASCII(domain, out, info);
        Set<IDNA.Error> errors = EnumSet.noneOf(IDNA.Error.class);
        errors.addAll(info.getErrors());
        errors.removeAll(Idna.NOT_CHECKED);
        if (!errors.isEmpty() || out.isEmpty()) {
            throw new InvalidUrlException("the host is not a valid international domain name ("
                    + (errors.isEmpty() ? "empty" : errors.iterator().next().name().toLowerCase(Locale.ROOT)) + ")");
        }
        return out.toString();
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasAceLabel(String domain) {
        for (int start = 0; ; start++) {
            if (domain.regionMatches(true, start, "xn--", 0, 4)) {
                return true;
            }
            start = domain.indexOf('.', start);
            if (start < 0) {
                return false;
            }
        }
    }

    /** The standard's forbidden domain code points (ASCII ones: the result of {@link #toAscii} is ASCII). */
    private static boolean forbiddenInDomain(char c) {
        return c <= 0x20 || c == 0x7f || "#%/:<>?@[\\]^|".indexOf(c) >= 0;
    }

    /** Whether the last label (a trailing dot aside) is a number, which makes the whole host an IPv4 address. */
    private static boolean endsInANumber(String host) {
        int end = host.endsWith(".") && host.length() > 1 ? host.length() - 1 : host.length();
        String last = host.substring(host.lastIndexOf('.', end - 1) + 1, end);
        if (last.isEmpty()) {
            return false;
        }
        boolean digits = true;
        for (int i = 0; i < last.length() && digits; i++) {
            digits = last.charAt(i) >= '0' && last.charAt(i) <= '9';
        }
        return digits || Ipv4.number(last) >= 0;
    }

    static String describe(char c) {
        return c > 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
