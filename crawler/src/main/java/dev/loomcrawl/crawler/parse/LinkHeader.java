package dev.loomcrawl.crawler.parse;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The canonical URL an HTTP {@code Link} header names (RFC 8288: {@code <https://example.com/a.pdf>;
 * rel="canonical"}), as search engines read it for a PDF or a page that says so in its headers alone. Read in
 * one pass, no regular expression: the header is the server's, of any length.
 */
public final class LinkHeader {
    private LinkHeader() {}

    /** The target of the first link whose {@code rel} has the word {@code canonical}, as written; else null. */
    public static @Nullable String canonical(@Nullable String header) {
        if (header == null) {
            return null;
        }
        int at = 0;
        while (at < header.length()) {
            int open = header.indexOf('<', at);
            int close = open < 0 ? -1 : header.indexOf('>', open + 1);
            if (close < 0) {
                return null;
            }
            List<String> params = split(header, close + 1);
            int end = close + 1 + params.stream().mapToInt(p -> p.length() + 1).sum();
            if (relIsCanonical(params.subList(1, params.size()))) {
                return header.substring(open + 1, close).strip();
            }
            at = end;
        }
        return null;
    }

    /**
     * From {@code from} to the end of its link-value (the next comma outside quotes): the text split at each
     * semicolon outside quotes. The first part is what stands before the first semicolon.
     */
    private static List<String> split(String header, int from) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = from;
        for (int i = from; i < header.length(); i++) {
            char c = header.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == ';' || c == ',')) {
                parts.add(header.substring(start, i));
                start = i + 1;
                if (c == ',') {
                    return parts;
                }
            }
        }
        parts.add(header.substring(start));
        return parts;
    }

    private static boolean relIsCanonical(List<String> params) {
        for (String param : params) {
            int equals = param.indexOf('=');
            if (equals > 0 && param.substring(0, equals).strip().equalsIgnoreCase("rel")) {
                String value = param.substring(equals + 1).strip();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                for (String word : value.split("\\s+")) {
                    if (word.equalsIgnoreCase("canonical")) {
                        return true;
                    }
                }
                return false; // one rel per link
            }
        }
        return false;
    }
}
