package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.TlsTrust;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/** The TLS context of a {@link TlsTrust} other than the JDK's own, for {@link CrawlHttpClients}. */
final class TlsContexts {
    private TlsContexts() {}

    static SSLContext of(TlsTrust trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trust.any() ? new AnyCertificate() : jdkAnd(trust.extra())}, null);
            return context;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("the JDK's TLS cannot be set up: " + e, e);
        }
    }

    /**
     * The JDK's own trust manager over its authorities and {@code extra}: chains checked as ever, and the
     * server's name too (an {@code X509ExtendedTrustManager} checks it, given the engine).
     */
    private static TrustManager jdkAnd(List<X509Certificate> extra) throws GeneralSecurityException, java.io.IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        int n = 0;
        for (X509Certificate authority : jdkTrust().getAcceptedIssuers()) {
            store.setCertificateEntry("jdk-" + n++, authority);
        }
        for (X509Certificate certificate : extra) {
            store.setCertificateEntry("given-" + n++, certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers()[0];
    }

    private static X509TrustManager jdkTrust() throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init((KeyStore) null);
        for (TrustManager m : factory.getTrustManagers()) {
            if (m instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("the JDK has no X.509 trust manager");
    }

    /**
     * Accepts any certificate for any name. Extended, so that the JDK does not wrap it in a check of the name
     * (it does for a plain {@code X509TrustManager}).
     */
    private static final class AnyCertificate extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a crawler's client is never asked to trust a client");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
