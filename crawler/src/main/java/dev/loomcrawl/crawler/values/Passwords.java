package dev.loomcrawl.crawler.values;

import java.util.regex.Pattern;

/** Text that may quote a JDBC URL or a web URL, as it may be printed or logged: never a password. */
public final class Passwords {
    private static final Pattern PASSWORD_SETTING = Pattern.compile("(?i)(password\\s*=\\s*)[^&;\\s'\"]*");
    /** A {@code user:password@} after {@code //}, or after {@code \\}, which a browser reads as {@code //} in an http URL. */
    private static final Pattern SECRET_IN_URL = Pattern.compile("([/\\\\]{2}[^/\\\\@:\\s'\"]+:)[^/@\\s'\"]*@");

    private Passwords() {}

    /**
     * {@code text} with every password of a JDBC or web URL in it ({@code password=} of PostgreSQL's query,
     * {@code PASSWORD=} of H2's settings, a {@code user:password@} before a host) as {@code ***}.
     */
    public static String hidden(String text) {
        return SECRET_IN_URL.matcher(PASSWORD_SETTING.matcher(text).replaceAll("$1***")).replaceAll("$1***@");
    }
}
