package dev.loomcrawl.mocksites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A farm whose pages change on their own schedule: validators, 304s, each kind of change, and its log. */
class PageChangesTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private MockSites farm;

    @AfterEach
    void stop() {
        farm.close();
        client.close();
    }

    private HttpResponse<String> get(int host, int page, String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(farm.graph().url(host, SiteGraph.pagePath(page))))
                .timeout(Duration.ofSeconds(10));
        if (header != null) {
            b.header(header, value);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The first page of the farm that changes the way {@code kind} says. */
    private int pageOf(PageChanges.Kind kind) {
        for (int page = 0; page < farm.graph().config().pagesPerHost(); page++) {
            if (farm.changeKind(0, page) == kind) {
                return page;
            }
        }
        throw new AssertionError("no page of kind " + kind);
    }

    @Test
    void pagesChangeAsScheduledAnswerConditionallyAndAreLogged() throws Exception {
        farm = MockSites.start(new FarmConfig(1, 200, 4, 0, 512, 7, LatencyModel.fixed(0), Faults.NONE, false, 0,
                new PageChanges.Spec(0.2, 0.2, 0.1, 0.1, Duration.ofMillis(1_500), Duration.ofMillis(1_500))));
        int still = pageOf(PageChanges.Kind.STATIC);
        int minor = pageOf(PageChanges.Kind.MINOR);
        int major = pageOf(PageChanges.Kind.MAJOR);
        int gone = pageOf(PageChanges.Kind.GONE);
        int moved = pageOf(PageChanges.Kind.MOVED);

        // A conditional request right after a plain one is answered 304 (tried again if the page changed in between,
        // which a loaded machine can stretch to a whole period).
        String[] validators = new String[2];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            HttpResponse<String> first = get(0, minor, null, null);
            validators[0] = first.headers().firstValue("ETag").orElseThrow();
            validators[1] = first.headers().firstValue("Last-Modified").orElseThrow();
            return get(0, minor, "If-None-Match", validators[0]).statusCode() == 304
                    && get(0, minor, "If-Modified-Since", validators[1]).statusCode() == 304;
        });
        String etag = validators[0];
        String stillTag = get(0, still, null, null).headers().firstValue("ETag").orElseThrow();
        String majorBody = get(0, major, null, null).body();

        // Within two periods every changing page has changed at least once.
        await().atMost(Duration.ofSeconds(10)).until(() -> get(0, gone, null, null).statusCode() == 410
                && get(0, moved, null, null).statusCode() == 301 && !farm.changesMade().isEmpty()
                && get(0, minor, "If-None-Match", etag).statusCode() == 200 && !get(0, major, null, null).body().equals(majorBody));
        assertThat(get(0, moved, null, null).headers().firstValue("Location")).hasValue("/moved/" + moved);
        HttpResponse<String> minorNow = get(0, minor, null, null);
        assertThat(minorNow.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
        assertThat(minorNow.body()).contains("readers");
        assertThat(get(0, still, "If-None-Match", stillTag).statusCode()).isEqualTo(304); // never changes

        Map<Integer, PageChanges.Kind> logged = farm.changesMade().stream()
                .collect(Collectors.toMap(PageChanges.Made::page, PageChanges.Made::kind, (a, b) -> a));
        assertThat(logged).containsEntry(minor, PageChanges.Kind.MINOR).containsEntry(major, PageChanges.Kind.MAJOR)
                .containsEntry(gone, PageChanges.Kind.GONE).containsEntry(moved, PageChanges.Kind.MOVED)
                .doesNotContainKey(still);
    }
}
