package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.ForwardProxy;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;

/**
 * The {@code java.net.http} clients a crawl fetches with, made in one place: for the crawler's {@code Fetcher}, and
 * for what must fetch as a crawl does and be compared with it (the bench's floor, {@code bench --cold --floor}).
 */
public final class CrawlHttpClients {
    private CrawlHttpClients() {}

    /**
     * One client per core, four at most: each has one selector
     * thread for all its connections, and one connection pool whose expiry list grows with what it holds; a few
     * clients spread both over the cores.
     *
     * @param proxy the forward proxy they go through, or null
     * @param tls the certificates https servers may show them
     * @param cookies where they all keep cookies, or null: none kept
     */
    public static HttpClient[] open(Duration connectTimeout, @Nullable ForwardProxy proxy, TlsTrust tls,
            @Nullable CookieHandler cookies) {
        SSLContext context = tls.isJdk() ? null : TlsContexts.of(tls);
        HttpClient[] clients = new HttpClient[Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()))];
        for (int i = 0; i < clients.length; i++) {
            clients[i] = newClient(connectTimeout, proxy, context, cookies);
        }
        return clients;
    }

    /** The client of the host {@code hostKey} ({@code host:port}): always the same one, so its connections share a pool. */
    public static HttpClient forHost(HttpClient[] clients, String hostKey) {
        return clients[Math.floorMod(hostKey.hashCode(), clients.length)];
    }

    /**
     * A client on {@code tls} or else the JDK's default TLS context (its trust store, protocols and cipher
     * suites), through {@code proxy} when there is one, else through what the JDK's proxy properties say (none
     * by default).
     */
    static HttpClient newClient(Duration connectTimeout, @Nullable ForwardProxy proxy, @Nullable SSLContext tls,
            @Nullable CookieHandler cookies) {
        HttpClient.Builder b = HttpClient.newBuilder();
        if (tls != null) {
            b.sslContext(tls);
        }
        if (cookies != null) {
            b.cookieHandler(cookies);
        }
        if (proxy != null) {
            b.proxy(ProxySelector.of(InetSocketAddress.createUnresolved(proxy.host().replaceAll("^\\[|\\]$", ""),
                    proxy.port())));
            if (proxy.user() != null) {
                b.authenticator(new ProxyLogin(proxy.user(), proxy.password()));
            }
        }
        return b
                // HTTP/1.1 only: the default h2c upgrade fails with "too many concurrent streams" under load.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER) // each hop is a new URL for the frontier
                .connectTimeout(connectTimeout)
                // The client hands the work that follows each read (parsing the response head, completing
                // the sender's future, passing body bytes on) from its selector thread to this executor.
                // Run there: a new virtual thread per hand-off, several per request, cost more than the
                // work, which is short and never blocks (the body handler only notes a Retry-After).
                // A cold wide crawl: -5% CPU, -10% wall; no thread is added in either mode.
                .executor(Runnable::run)
                .build();
    }

    /**
     * Answers a proxy's {@code 407} challenge, and nothing else: a site's own {@code 401} reaches the crawl as
     * it came. The JDK leaves Basic out of {@code CONNECT} tunnels unless told otherwise, and an https site
     * can only be reached through one, so the property that says so is cleared before the first such client is
     * made (the JDK reads it once).
     */
    private static final class ProxyLogin extends Authenticator {
        static {
            System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "");
        }

        private final String user;
        private final char[] password;

        ProxyLogin(String user, @Nullable String password) {
            this.user = user;
            this.password = password == null ? new char[0] : password.toCharArray();
        }

        @Override
        protected @Nullable PasswordAuthentication getPasswordAuthentication() {
            return getRequestorType() == RequestorType.PROXY ? new PasswordAuthentication(user, password.clone()) : null;
        }
    }
}
