package dev.loomcrawl.crawler.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlConfigTest {

    @Test
    void defaultsAreDocumentedValues() {
        CrawlConfig config = CrawlConfig.builder().seed("http://example.com/").build();
        assertThat(config.politeness().perHostConcurrency()).isEqualTo(8);
        assertThat(config.execution().poolSize()).isEqualTo(200);
        assertThat(config.execution().mode()).isEqualTo(ExecutionMode.VIRTUAL);
        assertThat(config.scope().maxDepth()).isEqualTo(3);
        assertThat(config.politeness().robotsRetryFor()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void errorsNameTheFieldAndTheValue() {
        assertThatThrownBy(() -> CrawlConfig.builder().seed("http://a/").perHostConcurrency(0).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("perHostConcurrency must be between 1 and 10000, was 0")
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("perHostConcurrency"));
        assertThatThrownBy(() -> CrawlConfig.builder().seed("http://a/").requestTimeout(Duration.ZERO).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> CrawlConfig.builder().build()).hasMessage("seeds must not be empty");
        assertThatThrownBy(() -> ExecutionMode.parse("fibers")).hasMessageContaining("'fibers'");
        assertThatThrownBy(() -> CrawlConfig.builder().seed("http://a/").seed("ftp://b/"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("seeds[1]"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            extract.title           | extract            | title  | h[[[
            extract                 | extract            | 9bad   | title
            extractAll.links        | extractAll         | links  | a@
            """)
    void badExtractionRulesNameTheRule(String field, String kind, String name, String rule) {
        CrawlConfigBuilder b = CrawlConfig.builder().seed("http://a/");
        if (kind.equals("extract")) {
            b.extract(name, rule);
        } else {
            b.extractAll(name, rule);
        }
        assertThatThrownBy(b::build).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo(field));
    }

    @Test
    void aPublicSuffixIsNoDomainToAllow() {
        assertThatThrownBy(() -> CrawlConfig.builder().seed("http://a/").allowDomain("co.uk").build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("public suffix");
        assertThat(CrawlConfig.builder().seed("http://a/").allowDomain("example.co.uk").build().scope()
                .allowedDomains())
                .containsExactly("example.co.uk");
    }

    /** The CLI's {@code 10m} and the API's {@code PT10M} both read a refusal's durations in words. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            PT10M  | PT5M   | must be at least the minimum, 10 min, and at most 365 days, was 5 min
            PT1M   | P400D  | must be at least the minimum, 1 min, and at most 365 days, was 400 days
            PT0.5S | PT1M   | must be between 1 s and 365 days, was 500 ms
            P1DT2H | PT1H   | must be at least the minimum, 1 day 2 h, and at most 365 days, was 1 h
            PT1M   | -PT30S | must be at least the minimum, 1 min, and at most 365 days, was -30 s
            """)
    void revisitRefusalsSayTheirDurationsInWords(String min, String max, String problem) {
        assertThatThrownBy(() -> Freshness.Revisit.of(Duration.parse(min), Duration.parse(max)))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problem()).isEqualTo(problem));
    }

    /** Every setting survives the store: a resumed job runs exactly as it was started. */
    @Test
    void everySettingSurvivesTheStoredForm() throws Exception {
        CrawlConfig config = CrawlConfig.builder().seed("http://a.test/").seed("https://b.test:8443/x")
                .maxDepth(7).maxPages(1234).perHostConcurrency(3).maxInFlight(99).connectTimeout(Duration.ofMillis(1_500))
                .requestTimeout(Duration.ofMillis(2_500)).fetchDeadline(Duration.ofSeconds(9)).maxRetries(4)
                .hostDelay(Duration.ofMillis(250)).hostFailureLimit(17).refusePrivateAddresses(true).cookies(true).maxBodyBytes(65_536)
                .maxRedirects(2).userAgent("TestBot/2.0 (+http://x.test/)").header("X-Trace", "1")
                .allowHost("c.test").allowDomain("d.example.com").allowPattern("^https?://[^/]+/docs/")
                .denyPattern("/calendar/").respectRobots(false)
                .robotsRetryFor(Duration.ofSeconds(5)).sitemaps(true).ignoreNofollow(true).acceptType("application/pdf")
                .extract("h", "title").extractAll("a", "a@href").storeBody(true).warcFile("/tmp/x.warc.gz")
                .mode(ExecutionMode.POOL).poolSize(33).build();
        CrawlConfig back = ConfigCodec.fromJson(ConfigCodec.toJson(config));
        assertThat(back).isEqualTo(config);
    }

    /** A one-pass job's webhook is refused as input ({@link #jsonErrorsNameTheJsonField}), but a stored one still reads. */
    @Test
    void aStoredOnePassJobWithAWebhookStillReads() {
        CrawlConfig stored = ConfigCodec.fromJson(
                "{\"seeds\":[\"http://a.test/\"],\"webhook\":{\"url\":\"http://h.test/\",\"secret\":\"s\"}}");
        assertThat(stored.freshness()).isEqualTo(Freshness.NONE);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"seeds":["http://a.test/"],"maxDepth":"3"}            | maxDepth
            {"seeds":["http://a.test/"],"maxDepth":null}           | maxDepth
            {"seeds":["http://a.test/"],"maxDepth":1.5}            | maxDepth
            {"seeds":["http://a.test/"],"allowedHosts":[1]}        | allowedHosts[0]
            {"seeds":["http://a.test/"],"respectRobots":"yes"}     | respectRobots
            {"seeds":["http://a.test/"],"requestTimeoutMs":0}      | requestTimeoutMs
            {"seeds":["http://a.test/"],"bogus":1}                 | bogus
            {"seeds":["http://a.test:99999/"]}                     | seeds[0]
            {"seeds":[7]}                                          | seeds[0]
            {"seeds":["http://a.test/"],"headers":{"Host":"x"}}    | headers.Host
            {"seeds":["http://a.test/"],"allowPatterns":["/a","("]} | allowPatterns[1]
            {"seeds":["http://a.test/"],"webhook":{"url":"http://h.test/","secret":"s"}} | webhook
            """)
    void jsonErrorsNameTheJsonField(String json, String field) throws Exception {
        assertThatThrownBy(() -> ConfigCodec.read(new ObjectMapper().readTree(json), CrawlConfig.builder()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(ConfigCodec.jsonName(((ConfigException) e).field())).isEqualTo(field));
    }
}
