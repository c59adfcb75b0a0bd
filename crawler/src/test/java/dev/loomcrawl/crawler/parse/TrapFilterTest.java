package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.CrawlUrl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TrapFilterTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            http://x.test/a/b/a/b/a/b/        | true
            http://x.test/next/next/next/     | true
            http://x.test/a/b/a/b/            | false
            http://x.test/2026/11/21/item     | false
            http://x.test/?q=a/a/a/a          | false
            """)
    void repeatedPathSegmentsLookLikeTraps(String url, boolean trap) {
        assertThat(TrapFilter.looksLikeTrap(CrawlUrl.of(url))).isEqualTo(trap);
    }
}
