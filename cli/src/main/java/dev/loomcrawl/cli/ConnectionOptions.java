package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.ConfigException;
import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ForwardProxy;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * How the process reaches servers: the forward proxy every request goes through, and the certificates https
 * servers may show. Shared by {@code crawl}, {@code resume}, {@code recrawl} and {@code serve} (a picocli mixin).
 */
final class ConnectionOptions {
    /** Where a proxy URL with a password can be given without showing it in the process list. */
    static final String PROXY_ENV = "LOOMCRAWL_PROXY";

    @Option(names = "--proxy", paramLabel = "URL", description = "Send every request through this HTTP proxy:"
            + " http://[user:password@]host:port (https sites through its CONNECT tunnel; or the environment"
            + " variable " + PROXY_ENV + ", which keeps a password out of the process list; --proxy= with nothing:"
            + " no proxy, whatever " + PROXY_ENV + " says).")
    @Nullable String proxy;

    @Option(names = "--ca-cert", paramLabel = "FILE", description = "Trust the certificates in this PEM file too,"
            + " besides the JDK's authorities: a company's own certificate authority, or a test site's self-signed"
            + " certificate (the server's name is still checked).")
    @Nullable Path caCert;

    @Option(names = "--insecure", description = "Accept any certificate an https server shows, for any name:"
            + " neither its chain nor its name is checked, so the crawl cannot tell the site from whoever sits"
            + " between (for sites of your own; --ca-cert keeps the checks).")
    boolean insecure;

    /**
     * {@code options} with the proxy and the trust given, if any.
     *
     * @throws ConfigException naming {@code proxy} (never its password) or {@code caCert}
     */
    CrawlerOptions on(CrawlerOptions options) {
        if (insecure && caCert != null) {
            throw new ConfigException("caCert", null, "and --insecure do not go together: --insecure checks no"
                    + " certificate at all");
        }
        String url = proxy != null ? proxy : System.getenv(PROXY_ENV);
        CrawlerOptions proxied = url == null || url.isBlank() ? options : options.proxy(ForwardProxy.parse(url));
        return insecure ? proxied.tls(TlsTrust.ANY) : caCert != null ? proxied.tls(TlsTrust.alsoFrom(caCert)) : proxied;
    }
}
