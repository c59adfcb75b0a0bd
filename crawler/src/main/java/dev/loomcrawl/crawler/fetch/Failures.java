package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.ForwardProxy;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import org.jspecify.annotations.Nullable;

/** What a failed exchange was: its kind, read from the types in the exception's chain, and its words. */
final class Failures {
    private Failures() {}

    /**
     * The kind of a failed exchange, by the types in the exception's chain (the JDK client wraps the cause in
     * a plain {@link IOException}): the first it knows decides. An exception of no known type is {@code io}.
     */
    static FailureKind classify(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            FailureKind kind = switch (t) {
                case HttpConnectTimeoutException x -> FailureKind.CONNECT;
                case HttpTimeoutException x -> FailureKind.TIMEOUT;
                case ConnectException x -> FailureKind.CONNECT; // refused: a SocketException, so before it
                case NoRouteToHostException x -> FailureKind.CONNECT;
                case UnknownHostException x -> FailureKind.CONNECT;
                case UnresolvedAddressException x -> FailureKind.CONNECT;
                case ProtocolException x -> FailureKind.PROTOCOL;
                case EOFException x -> FailureKind.RESET; // the peer closed the connection mid-exchange
                case SocketException x -> FailureKind.RESET;
                case ClosedChannelException x -> FailureKind.RESET;
                default -> null;
            };
            if (kind != null) {
                return kind;
            }
        }
        return FailureKind.IO;
    }

    /**
     * The exception's words: its type and the first message in its chain (the JDK client throws a refused
     * connection as a {@code ConnectException} with none, its cause saying "Connection refused").
     */
    static String describe(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.startsWith("too many authentication attempts")) {
                // only a proxy's 407 is answered with a password (CrawlHttpClients), and it refused it each time
                return "the proxy refused its user and password (HTTP 407)";
            }
            if (message != null && !message.isBlank()) {
                return e.getClass().getSimpleName() + ": " + message;
            }
        }
        return e instanceof ConnectException ? "ConnectException: connection refused" : e.getClass().getSimpleName();
    }

    /**
     * As {@link #describe}, saying so when the connection that failed was to {@code proxy}: behind a proxy every
     * connection is made to it, so a refused or timed-out one is the proxy's, whatever the URL's host.
     */
    static String describe(IOException e, @Nullable ForwardProxy proxy) {
        return proxy != null && classify(e) == FailureKind.CONNECT
                ? "the proxy " + proxy.host() + ":" + proxy.port() + " could not be reached: " + describe(e)
                : describe(e);
    }

    /**
     * A refused certificate in words a user can act on: signed by no authority trusted here, for another name, or
     * out of date, with what the JDK said; else as {@link #describe}.
     */
    static String describeTls(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String why = switch (t) {
                case CertPathBuilderException x -> "the server's certificate is signed by no authority trusted here"
                        + " (--ca-cert FILE trusts it; --insecure checks none)";
                case CertificateExpiredException x -> "the server's certificate has expired: " + x.getMessage();
                case CertificateNotYetValidException x -> "the server's certificate is not valid yet: " + x.getMessage();
                case CertificateException x when String.valueOf(x.getMessage()).startsWith("No ") ->
                        "the server's certificate is for another name: " + x.getMessage(); // "No name matching ..."
                default -> null;
            };
            if (why != null) {
                return why;
            }
        }
        return describe(e);
    }

    /** Whether the name could not be resolved; the JDK client nests that two causes deep. */
    static boolean unresolved(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }
}
