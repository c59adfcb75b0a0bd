package dev.loomcrawl.crawler;

import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The JDK's default TLS context ({@link SSLContext#getDefault()}), made when the first TLS connection needs
 * it instead of when the HTTP client is built. Building an {@code HttpClient} without a context of its own
 * makes the default one at once: it reads and parses the trust store's ~150 certificates on the critical path
 * before the first request (JDK 25: 120-150 ms to build a client in a bare JVM; a cold one-page crawl with the
 * start-up cache took 0.71 CPU-s instead of 0.82 once it was gone), spent for nothing by a crawl of
 * {@code http://} sites. An {@code https://} crawl spends it at its
 * first connection instead, once per process; the context is the same default one, with the same trust
 * store, protocols and cipher suites.
 *
 * <p>It goes with {@link #parameters()}: a client given no parameters asks the context for its defaults when
 * it is built, which would make it. Parameters with no protocols or cipher suites leave the engine's defaults
 * in place, which are the default context's ({@code LazyTlsTest} compares the two engines).
 */
final class LazyTls extends SSLContext {
    /** One for the process: the default context it stands for is one for the process too. */
    static final LazyTls INSTANCE = new LazyTls();

    private final Spi spi;

    LazyTls() {
        this(new Spi());
    }

    private LazyTls(Spi spi) {
        super(spi, null, "Default");
        this.spi = spi;
    }

    /**
     * The parameters a client with this context is built with: no protocols, cipher suites, groups or schemes,
     * so the engine's defaults apply; the two flags whose defaults differ from a new {@link SSLParameters}'s
     * are set as the default context sets them (retransmissions, a DTLS matter; the local order of cipher
     * suites, a server's).
     */
    static SSLParameters parameters() {
        SSLParameters p = new SSLParameters();
        p.setEnableRetransmissions(false);
        p.setUseCipherSuitesOrder(true);
        return p;
    }

    /** Whether the default context has been made: only once a TLS connection needed it. */
    boolean made() {
        return spi.made();
    }

    /** Hands every call to the default context, made on the first. */
    private static final class Spi extends SSLContextSpi {
        private volatile SSLContext context;

        boolean made() {
            return context != null;
        }

        private SSLContext context() {
            SSLContext c = context;
            if (c == null) {
                try {
                    c = SSLContext.getDefault(); // the JDK makes it once and keeps it; a race here only asks twice
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("no default TLS context: " + e.getMessage(), e);
                }
                context = c;
            }
            return c;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException("the default TLS context is initialised by the JDK");
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return context().createSSLEngine();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return context().createSSLEngine(host, port);
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return context().getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return context().getServerSocketFactory();
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return context().getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return context().getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return context().getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return context().getSupportedSSLParameters();
        }
    }
}
