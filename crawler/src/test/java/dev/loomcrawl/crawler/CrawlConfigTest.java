package dev.loomcrawl.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CrawlConfigTest {

    @Test
    void defaultsAreDocumentedValues() {
        CrawlConfig config = CrawlConfig.builder().seed("http://example.com/").build();
        assertThat(config.perHostConcurrency()).isEqualTo(8);
        assertThat(config.poolSize()).isEqualTo(200);
        assertThat(config.mode()).isEqualTo(ExecutionMode.VIRTUAL);
        assertThat(config.maxDepth()).isEqualTo(3);
    }

    @Test
    void errorsNameTheFieldAndTheValue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CrawlConfig.builder().seed("http://a/").perHostConcurrency(0).build())
                .withMessage("perHostConcurrency must be between 1 and 10000, was 0");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CrawlConfig.builder().seed("http://a/").requestTimeout(Duration.ZERO).build())
                .withMessageContaining("requestTimeout");
        assertThatIllegalArgumentException().isThrownBy(() -> CrawlConfig.builder().build())
                .withMessage("seeds must not be empty");
        assertThatIllegalArgumentException().isThrownBy(() -> ExecutionMode.parse("fibers"))
                .withMessageContaining("'fibers'");
    }
}
