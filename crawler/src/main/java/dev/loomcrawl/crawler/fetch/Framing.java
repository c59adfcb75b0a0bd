package dev.loomcrawl.crawler.fetch;

import java.io.InputStream;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response that gives its body's length two ways, {@code Transfer-Encoding} and {@code Content-Length}: RFC 9112
 * (6.3) says the first wins and calls such a message a likely request smuggling; browsers read it as chunked. The
 * JDK's client reads it by {@code Content-Length}, so the page would be chunk sizes and a cut body, and the rest of
 * the chunks would stay on the connection to fail the next request sent on it, another URL's. Its body is not read
 * and its connection is closed instead.
 */
final class Framing {
    private Framing() {}

    /** Whether the response's headers give its length two ways. */
    static boolean twoWays(HttpHeaders headers) {
        return headers.firstValue("Transfer-Encoding").isPresent() && headers.firstValue("Content-Length").isPresent();
    }

    /** The body as a stream, or, when the length is given two ways, an empty one and the connection closed. */
    static HttpResponse.BodySubscriber<InputStream> body(HttpResponse.ResponseInfo info) {
        return twoWays(info.headers()) ? new Unread() : HttpResponse.BodySubscribers.ofInputStream();
    }

    /** Cancels at once: a cancelled exchange's connection is closed, not given back to the pool. */
    private static final class Unread implements HttpResponse.BodySubscriber<InputStream> {
        @Override
        public CompletionStage<InputStream> getBody() {
            return CompletableFuture.completedFuture(InputStream.nullInputStream());
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.cancel();
        }

        @Override
        public void onNext(List<ByteBuffer> item) {}

        @Override
        public void onError(Throwable throwable) {}

        @Override
        public void onComplete() {}
    }
}
