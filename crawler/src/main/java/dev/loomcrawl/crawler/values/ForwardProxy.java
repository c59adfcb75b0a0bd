package dev.loomcrawl.crawler.values;

import dev.loomcrawl.crawler.url.WebUrl;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP forward proxy every request of the process goes through ({@code --proxy}): plain requests as
 * absolute-form requests, https ones through a {@code CONNECT} tunnel, as the JDK's client does both.
 *
 * @param user with {@code password}, what the proxy's {@code 407} challenge is answered with; else null
 */
public record ForwardProxy(String host, int port, @Nullable String user, @Nullable String password) {

    /**
     * {@code url}: {@code http://[user:password@]host[:port]}, the form curl and most tools take.
     *
     * @throws ConfigException naming {@code proxy}, never showing the password
     */
    public static ForwardProxy parse(String url) {
        WebUrl.Parse parsed = WebUrl.parse(url == null ? "" : url.strip());
        if (!(parsed instanceof WebUrl.Parse.Ok ok) || !ok.url().scheme().equals("http")) {
            throw new ConfigException("proxy", null, "must be an http:// proxy URL such as http://proxy.internal:3128,"
                    + " was '" + hidden(url) + "'" + (url != null && url.strip().startsWith("https:")
                    ? " (the JDK's client speaks to a proxy in plain HTTP; https sites still go through its tunnel)" : ""));
        }
        WebUrl u = ok.url();
        if (!u.path().equals("/") || u.query() != null || u.fragment() != null) {
            throw new ConfigException("proxy", null, "must name only a host and port, was '" + hidden(url) + "'");
        }
        boolean credentials = !u.username().isEmpty() || !u.password().isEmpty();
        return new ForwardProxy(u.host(), u.effectivePort(), credentials ? decoded(u.username()) : null,
                credentials ? decoded(u.password()) : null);
    }

    private static String decoded(String percentEncoded) {
        return URLDecoder.decode(percentEncoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** {@code url} with whatever comes before its last {@code @} (a user and password) shown as {@code ***}. */
    private static String hidden(@Nullable String url) {
        if (url == null) {
            return "";
        }
        int at = url.lastIndexOf('@');
        int scheme = url.indexOf("://");
        return at < 0 ? url : (scheme >= 0 && scheme < at ? url.substring(0, scheme + 3) : "") + "***@" + url.substring(at + 1);
    }

    @Override
    public String toString() {
        return "http://" + (user == null ? "" : user + ":***@") + host + ":" + port;
    }
}
