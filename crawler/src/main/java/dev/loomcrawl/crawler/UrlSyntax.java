package dev.loomcrawl.crawler;

import java.util.Locale;

/**
 * What the characters of a URL may be, read from the string itself before (or instead of) any parser: its
 * scheme, its authority (user info, host, port) and its host's labels. For {@link UrlNormaliser}'s checks and
 * the config's.
 */
final class UrlSyntax {
    private UrlSyntax() {}

    /** Whether the authority is an IPv6 literal ({@code http://[::1]/}). */
    static boolean isIpv6Literal(String raw) {
        int start = raw.indexOf("://");
        return start > 0 && raw.startsWith("[", start + 3);
    }

    /** Why {@code host} is no DNS name or IP literal (RFC 1123: labels of 1 to 63 characters), or null. */
    static String hostProblem(String host) {
        if (host.startsWith("[")) {
            return host.endsWith("]") ? null : "unclosed IPv6 literal";
        }
        if (host.length() > 253) {
            return "longer than 253 characters";
        }
        int label = 0;
        for (int i = 0; i <= host.length(); i++) {
            char c = i == host.length() ? '.' : host.charAt(i);
            if (c == '.') {
                if (label == 0 && i < host.length()) {
                    return "an empty label";
                }
                label = 0;
            } else if (++label > 63) {
                return "a label longer than 63 characters";
            } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return "the character '" + c + "'";
            }
        }
        return null;
    }

    /** Whether {@code s} holds half of a surrogate pair without the other. */
    static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** {@code s} with each surrogate written as a {@code \\u} escape, for an error message. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(Character.isSurrogate(c) ? "\\u" + Integer.toHexString(c) : String.valueOf(c));
        }
        return b.toString();
    }

    /** Whether the authority's port, if it has one, is written in digits alone (an empty port is allowed). */
    static boolean portDigitsOnly(String raw) {
        int start = authorityStart(raw);
        if (start < 0) {
            return true;
        }
        int end = authorityEnd(raw, start);
        start = Math.max(start, raw.lastIndexOf('@', end - 1) + 1); // after any user info
        int hostEnd = raw.lastIndexOf(']', end - 1); // an IPv6 literal's colons are not a port's
        int colon = raw.indexOf(':', Math.max(start, hostEnd + 1));
        if (colon < 0 || colon >= end) {
            return true;
        }
        for (int i = colon + 1; i < end; i++) {
            if (raw.charAt(i) < '0' || raw.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether the authority carries user info ({@code user:password@}). */
    static boolean hasUserInfo(String raw) {
        int start = authorityStart(raw);
        return start >= 0 && raw.lastIndexOf('@', authorityEnd(raw, start) - 1) >= start;
    }

    /** Where the authority starts (after {@code ://}), or -1 when there is none. */
    private static int authorityStart(String raw) {
        int scheme = raw.indexOf("://");
        return scheme < 0 ? -1 : scheme + 3;
    }

    /** Where the authority that starts at {@code start} ends: at the path, query or fragment, or the end. */
    private static int authorityEnd(String raw, int start) {
        int end = start;
        while (end < raw.length() && "/?#".indexOf(raw.charAt(end)) < 0) {
            end++;
        }
        return end;
    }

    /** The scheme before the first colon, lower-case; empty when there is none. */
    static String schemeOf(String raw) {
        int colon = raw.indexOf(':');
        return colon <= 0 ? "" : raw.substring(0, colon).strip().toLowerCase(Locale.ROOT);
    }
}
