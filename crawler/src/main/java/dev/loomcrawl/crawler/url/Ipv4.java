package dev.loomcrawl.crawler.url;

/** The URL Standard's IPv4 parser: one to four numbers, each decimal, octal ({@code 0} first) or hex ({@code 0x}). */
final class Ipv4 {
    /** Above any part's range: a number is capped here so that a long one cannot overflow. */
    private static final long TOO_BIG = 1L << 33;

    private Ipv4() {}

    static long parse(String host) {
        String[] parts = host.split("\\.", -1);
        int n = parts.length;
        if (n > 1 && parts[n - 1].isEmpty()) {
            n--;
        }
        if (n > 4) {
            throw new InvalidUrlException("an IPv4 address of more than four parts");
        }
        long address = 0;
        for (int i = 0; i < n; i++) {
            long number = number(parts[i]);
            if (number < 0) {
                throw new InvalidUrlException("an IPv4 address with the part '" + parts[i] + "'");
            }
            boolean last = i == n - 1;
            if (!last && number > 255 || last && number >= 1L << 8 * (5 - n)) {
                throw new InvalidUrlException("an IPv4 address out of range");
            }
            address = last ? address + number : address + (number << 8 * (3 - i));
        }
        return address;
    }

    /** One part's value (at most {@link #TOO_BIG}), or -1 where it is no number. */
    static long number(String part) {
        if (part.isEmpty()) {
            return -1;
        }
        int radix = 10;
        int start = 0;
        if (part.length() >= 2 && part.charAt(0) == '0' && (part.charAt(1) == 'x' || part.charAt(1) == 'X')) {
            radix = 16;
            start = 2;
        } else if (part.length() >= 2 && part.charAt(0) == '0') {
            radix = 8;
            start = 1;
        }
        long value = 0;
        for (int i = start; i < part.length(); i++) {
            int digit = Character.digit(part.charAt(i), radix);
            if (digit < 0 || part.charAt(i) >= 0x80) {
                return -1;
            }
            value = Math.min(TOO_BIG, value * radix + digit);
        }
        return value;
    }

    static String serialise(long address) {
        return (address >> 24 & 0xFF) + "." + (address >> 16 & 0xFF) + "." + (address >> 8 & 0xFF) + "." + (address & 0xFF);
    }
}
