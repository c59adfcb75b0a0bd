package dev.loomcrawl.crawler.values;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Content cut to a length: where the cut falls, and that what is kept still reads as Markdown. */
class PageContentTest {
    private static String cut(String text, int max) {
        return new PageContent(text, null, null, null, null).cut(max).text();
    }

    @Test
    void contentWithinTheLengthIsKeptWhole() {
        assertThat(cut("# Title\n\nA paragraph.", 100)).isEqualTo("# Title\n\nA paragraph.");
    }

    @Test
    void theCutKeepsTheLastWholeBlockWhenOneEndsNear() {
        String text = "# x\n\ny\n\n".repeat(1_000);
        // 5,001 falls inside a heading: the cut is before it, not after a lone "#", an empty heading
        assertThat(cut(text, 5_001)).isEqualTo("# x\n\ny\n\n".repeat(624) + "# x\n\ny\n\n[content cut at 4998 of 8000 characters]");
    }

    @Test
    void withNoBlockNearTheCutFallsAtAWordsEnd() {
        String text = "word ".repeat(1_000);
        assertThat(cut(text, 2_002)).isEqualTo("word ".repeat(400).strip() + "\n\n[content cut at 1999 of 5000 characters]");
        assertThat(cut("x".repeat(3_000), 1_000)).isEqualTo("x".repeat(1_000) + "\n\n[content cut at 1000 of 3000 characters]");
    }

    @Test
    void aCodeFenceTheCutLeavesOpenIsClosedAsItOpened() {
        String code = "```python\n" + "print(1)\n\n".repeat(500) + "```";
        assertThat(cut(code, 1_000)).endsWith("print(1)\n```\n\n[content cut at 998 of 5013 characters]");

        String inList = "- item\n\n  ~~~~\n" + "  ``` not a fence here\n\n".repeat(100) + "  ~~~~";
        assertThat(cut(inList, 1_000)).endsWith("  ``` not a fence here\n  ~~~~\n\n[content cut at 997 of 2421 characters]");
    }

    @Test
    void aBlockEndFarBackDoesNotCostTheTextAfterIt() {
        String closed = "```\ncode\n```\n\n" + "after ".repeat(500);
        assertThat(cut(closed, 1_000)).endsWith("after\n\n[content cut at 997 of 3014 characters]");
    }
}
