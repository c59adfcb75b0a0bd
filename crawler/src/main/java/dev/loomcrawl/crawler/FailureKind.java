package dev.loomcrawl.crawler;

import java.util.Locale;

/** Why a URL produced no page. Stored and reported by {@link #label()}. */
public enum FailureKind {
    /** No response headers within the request timeout, or the body exceeded its deadline. */
    TIMEOUT,
    /** The TCP connection could not be made (refused, unreachable, unknown host). */
    CONNECT,
    /** The peer closed or reset the connection mid-exchange. */
    RESET,
    /** The response was not valid HTTP. */
    PROTOCOL,
    /** The server answered 4xx or 5xx. */
    HTTP_STATUS,
    /** The body was longer than {@code maxBodyBytes}. */
    TOO_LARGE,
    /** The body was not HTML, so it was not parsed. */
    NOT_HTML,
    /** robots.txt disallows the URL. */
    ROBOTS,
    /** Any other I/O error. */
    IO;

    /** {@code http-status}, {@code too-large}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
