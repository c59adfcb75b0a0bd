package dev.loomcrawl.crawler.url;

/** The URL Standard's IPv6 parser (with an IPv4 tail) and its serialiser, which compresses. */
final class Ipv6 {
    private Ipv6() {}

    static int[] parse(String input) {
        int[] address = new int[8];
        int piece = 0;
        int compress = -1;
        int i = 0;
        int n = input.length();
        if (i < n && input.charAt(i) == ':') {
            if (!input.startsWith("::")) {
                throw invalid("starts with a single ':'");
            }
            i += 2;
            compress = ++piece;
        }
        while (i < n) {
            if (piece == 8) {
                throw invalid("more than eight pieces");
            }
            if (input.charAt(i) == ':') {
                if (compress != -1) {
                    throw invalid("two '::'");
                }
                i++;
                compress = ++piece;
                continue;
            }
            int value = 0;
            int length = 0;
            for (int digit; length < 4 && i < n && input.charAt(i) < 0x80 && (digit = Character.digit(input.charAt(i), 16)) >= 0;
                    i++, length++) {
                value = value * 16 + digit;
            }
            if (i < n && input.charAt(i) == '.') {
                if (length == 0 || piece > 6) {
                    throw invalid("a misplaced IPv4 part");
                }
                i -= length;
                piece = ipv4Tail(input, i, address, piece);
                i = n;
                break;
            } else if (i < n && input.charAt(i) == ':') {
                i++;
                if (i == n) {
                    throw invalid("ends with a single ':'");
                }
            } else if (i < n) {
                throw invalid("the character " + Hosts.describe(input.charAt(i)));
            }
            address[piece++] = value;
        }
        if (compress != -1) {
            expand(address, compress, piece);
        } else if (piece != 8) {
            throw invalid("fewer than eight pieces");
        }
        return address;
    }

    /** The standard's swap: the pieces after {@code ::} (at {@code compress}) moved to the end, zeros between. */
    private static void expand(int[] address, int compress, int pieces) {
        int swaps = pieces - compress;
        int piece = 7;
        while (piece != 0 && swaps > 0) {
            int other = compress + swaps - 1;
            int t = address[piece];
            address[piece] = address[other];
            address[other] = t;
            piece--;
            swaps--;
        }
    }

    /** Reads the dotted IPv4 tail from {@code i} into two pieces; the piece after them. */
    private static int ipv4Tail(String input, int i, int[] address, int piece) {
        int numbers = 0;
        int n = input.length();
        while (i < n) {
            int value = -1;
            if (numbers > 0) {
                if (input.charAt(i) == '.' && numbers < 4) {
                    i++;
                } else {
                    throw invalid("a bad IPv4 part");
                }
            }
            if (i == n || input.charAt(i) < '0' || input.charAt(i) > '9') {
                throw invalid("a bad IPv4 part");
            }
            while (i < n && input.charAt(i) >= '0' && input.charAt(i) <= '9') {
                int digit = input.charAt(i) - '0';
                if (value == 0) {
                    throw invalid("an IPv4 part with a leading zero");
                }
                value = value == -1 ? digit : value * 10 + digit;
                if (value > 255) {
                    throw invalid("an IPv4 part above 255");
                }
                i++;
            }
            address[piece] = address[piece] * 0x100 + value;
            numbers++;
            if (numbers == 2 || numbers == 4) {
                piece++;
            }
        }
        if (numbers != 4) {
            throw invalid("an IPv4 part of fewer than four numbers");
        }
        return piece;
    }

    static String serialise(int[] address) {
        int compress = -1;
        int longest = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && address[j] == 0) {
                j++;
            }
            if (j - i > longest) {
                longest = j - i;
                compress = i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == compress) {
                out.append(i == 0 ? "::" : ":");
                i += longest - 1;
                continue;
            }
            out.append(Integer.toHexString(address[i]));
            if (i < 7) {
                out.append(':');
            }
        }
        return out.toString();
    }

    private static InvalidUrlException invalid(String why) {
        return new InvalidUrlException("not an IPv6 address: " + why);
    }
}
