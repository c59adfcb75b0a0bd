package dev.loomcrawl.crawler.parse;

import org.jspecify.annotations.Nullable;

/**
 * Where a {@code <meta http-equiv=refresh>} or a {@code Refresh} header sends a browser: the HTML Standard's
 * "shared declarative refresh steps", which both follow. A page that redirects this way (a moved site's old
 * address, a static host's redirect pages) has nothing else to follow, so its target is one of its links.
 */
final class Refresh {
    private Refresh() {}

    /**
     * The URL text of {@code content} (such as {@code 0; url='/new'}), still to be resolved against the page; null
     * when it names none (the page reloads itself) or is not a refresh at all.
     */
    static @Nullable String target(@Nullable String content) {
        if (content == null) {
            return null;
        }
        int at = skipSpace(content, 0);
        int digits = at;
        while (at < content.length() && isDigit(content.charAt(at))) {
            at++;
        }
        if (at == digits && !(at < content.length() && content.charAt(at) == '.')) {
            return null;
        }
        while (at < content.length() && (isDigit(content.charAt(at)) || content.charAt(at) == '.')) {
            at++;
        }
        if (at == content.length()) {
            return null;
        }
        char c = content.charAt(at);
        if (c != ';' && c != ',' && !isSpace(c)) {
            return null;
        }
        at = skipSpace(content, at);
        if (at < content.length() && (content.charAt(at) == ';' || content.charAt(at) == ',')) {
            at = skipSpace(content, at + 1);
        }
        if (at == content.length()) {
            return null;
        }
        int url = at;
        if (matches(content, at, 'u')) { // "url =" may come before the URL; else the URL is all that is left
            int equals = skipSpace(content, at + 3);
            if (!(matches(content, at + 1, 'r') && matches(content, at + 2, 'l') && equals < content.length()
                    && content.charAt(equals) == '=')) {
                return content.substring(at);
            }
            url = skipSpace(content, equals + 1);
        }
        char quote = url < content.length() ? content.charAt(url) : 0;
        if (quote == '\'' || quote == '"') {
            int end = content.indexOf(quote, url + 1);
            return content.substring(url + 1, end < 0 ? content.length() : end);
        }
        return content.substring(url);
    }

    private static boolean matches(String s, int at, char lower) {
        return at < s.length() && Character.toLowerCase(s.charAt(at)) == lower && s.charAt(at) < 128;
    }

    private static int skipSpace(String s, int at) {
        while (at < s.length() && isSpace(s.charAt(at))) {
            at++;
        }
        return at;
    }

    /** ASCII white space, as the standard's steps skip it. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
