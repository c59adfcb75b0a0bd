package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A refresh's URL text, by the HTML Standard's shared declarative refresh steps. */
class RefreshTest {
    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', nullValues = "NONE", ignoreLeadingAndTrailingWhitespace = false, textBlock = """
            0; url=/next|/next
            0;URL='/quoted' trailing|/quoted
            0; url="/double|/double
            5, url = /spaced|/spaced
            0 /bare|/bare
            0;/bare|/bare
            0.5; url=/fraction|/fraction
            .5; url=/dot|/dot
            0; urlx=/not-a-key|urlx=/not-a-key
            0; u=/short|u=/short
            0; uri=/uri|uri=/uri
            0; url /no-equals|url /no-equals
            30|NONE
            0;|NONE
            '   '|NONE
            x; url=/no-time|NONE
            0x; url=/bad|NONE
            """)
    void theUrlIsWhatABrowserReads(String content, String target) {
        assertThat(Refresh.target(content.replace("'   '", "   "))).isEqualTo(target);
    }
}
