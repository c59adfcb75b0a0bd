package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.CrawlerOptions;
import dev.loomcrawl.crawler.values.ForwardProxy;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The forward proxy every request goes through: shared by {@code crawl}, {@code resume}, {@code recrawl} and
 * {@code serve} (a picocli mixin).
 */
final class ProxyOption {
    /** Where a proxy URL with a password can be given without showing it in the process list. */
    static final String PROXY_ENV = "LOOMCRAWL_PROXY";

    @Option(names = "--proxy", paramLabel = "URL", description = "Send every request through this HTTP proxy:"
            + " http://[user:password@]host:port (https sites through its CONNECT tunnel; or the environment"
            + " variable " + PROXY_ENV + ", which keeps a password out of the process list; --proxy= with nothing:"
            + " no proxy, whatever " + PROXY_ENV + " says).")
    @Nullable String proxy;

    /**
     * {@code options} with the proxy given, if any.
     *
     * @throws dev.loomcrawl.crawler.values.ConfigException naming {@code proxy}, never its password
     */
    CrawlerOptions on(CrawlerOptions options) {
        String url = proxy != null ? proxy : System.getenv(PROXY_ENV);
        return url == null || url.isBlank() ? options : options.proxy(ForwardProxy.parse(url));
    }
}
