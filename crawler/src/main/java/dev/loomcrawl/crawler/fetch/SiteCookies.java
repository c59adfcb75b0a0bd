package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.PolitenessKey;
import java.io.IOException;
import java.net.CookieHandler;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A job's cookies ({@code --cookies}), one {@link CookieManager} per registered domain. A cookie is only ever
 * set for its host's registered domain or a name under it (a browser refuses one for a public suffix), so
 * nothing is lost by the split, and it keeps each lookup small: the JDK's store looks a request's cookies up by
 * walking every domain it holds, under one lock, and a crawl holds thousands.
 */
final class SiteCookies extends CookieHandler {
    /**
     * Which cookies are kept: RFC 6265's rule, as browsers apply it. The JDK's own {@link
     * CookiePolicy#ACCEPT_ORIGINAL_SERVER} follows RFC 2965 and refuses {@code Domain=example.com} from
     * {@code www.example.com} (it wants {@code .example.com}), the form nearly every site sends today.
     */
    static final CookiePolicy AS_BROWSERS = (uri, cookie) -> {
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        String domain = cookie.getDomain();
        if (domain == null) {
            return true; // host-only
        }
        String d = (domain.startsWith(".") ? domain.substring(1) : domain).toLowerCase(Locale.ROOT);
        return (host.equals(d) || host.endsWith("." + d)) && !PolitenessKey.publicSuffix(d);
    };

    private final Map<String, CookieManager> bySite = new ConcurrentHashMap<>();

    @Override
    public Map<String, List<String>> get(URI uri, Map<String, List<String>> requestHeaders) throws IOException {
        return site(uri).get(uri, requestHeaders);
    }

    @Override
    public void put(URI uri, Map<String, List<String>> responseHeaders) throws IOException {
        site(uri).put(uri, responseHeaders);
    }

    private CookieManager site(URI uri) {
        String host = uri.getHost() == null ? "" : uri.getHost();
        return bySite.computeIfAbsent(PolitenessKey.domainOf(host),
                domain -> new CookieManager(null, AS_BROWSERS));
    }
}
