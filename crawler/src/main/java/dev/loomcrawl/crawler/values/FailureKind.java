package dev.loomcrawl.crawler.values;

import java.util.Locale;

/** Why a URL produced no page. Stored and reported by {@link #label()}. */
public enum FailureKind {
    /** No response headers within the request timeout, or the body exceeded its deadline. */
    TIMEOUT,
    /** The TCP connection could not be made (refused, unreachable, unknown host, a private address refused). */
    CONNECT,
    /** The peer closed or reset the connection mid-exchange (an EOF or socket error in the exception's chain). */
    RESET,
    /**
     * The TLS handshake failed: the server's certificate is not one the JDK's trust store vouches for, or does
     * not name the host, or the two sides share no protocol. Not tried again: it does not mend itself.
     */
    TLS,
    /** The client found the response not valid HTTP (a {@code ProtocolException}). */
    PROTOCOL,
    /** The server answered 4xx or 5xx. */
    HTTP_STATUS,
    /**
     * A redirect back to a URL of its own chain (to itself, or to the URL that redirected to it): no page is
     * there, however many hops one follows.
     */
    REDIRECT_LOOP,
    /** A body not HTML (a type the job accepts) was longer than {@code maxBodyBytes} (decoded); HTML is cut. */
    TOO_LARGE,
    /** A type the job does not keep (not HTML and not an accepted type): recorded with type and size. Skipped. */
    NOT_HTML,
    /** robots.txt disallows the URL: recorded, never requested. Skipped. */
    ROBOTS,
    /** An http(s) link that cannot be fetched as written (port out of range, bad host name). */
    INVALID_URL,
    /** Any other I/O error: one whose exception types say no more (the kind never comes from a message). */
    IO,
    /** A bug of ours met while handling this URL; recorded so that one URL never stalls a job. */
    INTERNAL;

    /** {@code http-status}, {@code too-large}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Skipped on purpose, not failed. */
    public boolean skipped() {
        return this == ROBOTS || this == NOT_HTML;
    }
}
