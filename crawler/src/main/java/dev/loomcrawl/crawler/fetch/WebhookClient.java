package dev.loomcrawl.crawler.fetch;

import dev.loomcrawl.crawler.values.FailureKind;
import dev.loomcrawl.crawler.values.TlsTrust;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.jspecify.annotations.Nullable;

/**
 * The client a webhook's deliveries go out on, made as the crawl's clients are and trusting what they trust
 * ({@code --ca-cert}, {@code --insecure}): a receiver on a company's own authority is as trusted as its intranet
 * sites. Not through the crawl's {@code --proxy}, which is its way out to the sites: the receiver is the user's
 * own, often on a network of theirs such a proxy does not reach (the JDK's proxy properties still apply). For a
 * job that refuses private addresses each delivery is sent under the private-address guard, as each fetch is: a
 * receiver whose name was public when the job was made and resolves to a private address later (DNS rebinding)
 * is refused then.
 *
 * <p>A delivery that fails says why in one line, with the receiver's host at most: a webhook URL's path and query
 * often hold the receiver's own secret token.
 */
public final class WebhookClient implements AutoCloseable {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final HttpClient client;
    private final boolean refusePrivateAddresses;

    /**
     * Why a delivery was not taken, in one line ("answered HTTP 503", "tls: ..."), and the rest the receiver asked
     * for by {@code Retry-After} (zero: none; five minutes at most, as for a site).
     */
    public record Refused(String why, Duration retryAfter) {
        Refused(String why) {
            this(why, Duration.ZERO);
        }
    }

    public WebhookClient(TlsTrust tls, boolean refusePrivateAddresses) {
        this.client = CrawlHttpClients.newClient(CONNECT_TIMEOUT, null, tls.isJdk() ? null : TlsContexts.of(tls), null);
        this.refusePrivateAddresses = refusePrivateAddresses;
    }

    /**
     * POSTs {@code body} to {@code url} with {@code headers}, waiting at most {@code timeout} for the answer.
     *
     * @return null when the receiver answered 2xx; else why not
     */
    public @Nullable Refused post(URI url, Map<String, String> headers, byte[] body, Duration timeout)
            throws InterruptedException {
        if (!refusePrivateAddresses) {
            return send(url, headers, body, timeout);
        }
        String host = url.getHost() == null ? "" : url.getHost();
        return AddressGuard.send(host, () -> Optional.ofNullable(send(url, headers, body, timeout)), Optional::isPresent,
                refused -> Optional.of(new Refused(refused))).orElse(null);
    }

    private @Nullable Refused send(URI url, Map<String, String> headers, byte[] body, Duration timeout)
            throws InterruptedException {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(request::header);
            HttpResponse<Void> response = client.send(request.build(), HttpResponse.BodyHandlers.discarding());
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                return null;
            }
            Duration rest = RetryPolicy.restAsked(status, response.headers());
            return new Refused("answered HTTP " + status + (rest.isZero() ? "" : ", Retry-After " + rest.toSeconds() + " s"),
                    rest);
        } catch (SSLHandshakeException e) {
            return new Refused(FailureKind.TLS.label() + ": " + Failures.describeTls(e));
        } catch (IOException e) {
            String why = Failures.unresolved(e) ? "cannot resolve " + url.getHost() : Failures.describe(e);
            return new Refused(Failures.classify(e).label() + ": " + withoutUrl(why, url));
        } catch (IllegalArgumentException e) {
            return new Refused("the HTTP client refused the URL: " + withoutUrl(String.valueOf(e.getMessage()), url));
        }
    }

    /** {@code words} with {@code url}, should they quote it, cut to its {@link #origin}. */
    private static String withoutUrl(String words, URI url) {
        return words.replace(url.toString(), origin(url));
    }

    /**
     * The receiver as words name it: {@code scheme://host:port} alone, for a webhook URL's user, path and query often
     * hold the receiver's own secret.
     */
    public static String origin(URI url) {
        String authority = url.getRawAuthority() == null ? "" : url.getRawAuthority().replaceFirst("^.*@", "");
        return url.getScheme() + "://" + authority;
    }

    @Override
    public void close() {
        client.shutdownNow();
    }
}
