package dev.loomcrawl.crawler.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LevelsTest {

    /** Student's t quantiles for the normal one 2.5 (one-sided p 0.0062), as SciPy's {@code t.isf} gives them. */
    @ParameterizedTest
    @CsvSource({"3, 5.405, 0.03", "5, 3.816, 0.01", "10, 3.042, 0.005", "20, 2.747, 0.005", "60, 2.578, 0.005"})
    void theTQuantileIsStudents(double freedom, double quantile, double relative) {
        assertThat(Levels.tQuantile(freedom, 2.5)).isCloseTo(quantile, within(relative * quantile));
    }

    @ParameterizedTest
    @CsvSource({"1", "2.9"})
    void belowThreeDegreesNothingIsClear(double freedom) {
        assertThat(Levels.tQuantile(freedom, 2.5)).isEqualTo(Double.MAX_VALUE);
    }
}
