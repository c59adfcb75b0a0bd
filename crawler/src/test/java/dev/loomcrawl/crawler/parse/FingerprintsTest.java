package dev.loomcrawl.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.content.Fingerprints;
import dev.loomcrawl.crawler.content.NearDuplicates;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The digest, the SimHash, and what counts as a page's visible text. */
class FingerprintsTest {
    private static final String ARTICLE = """
            The river rose through the night and by morning the lower town was under water. Volunteers
            carried sandbags to the bridge while the council met in the school hall to decide whether the
            old mill should be opened as a shelter for the families who had lost their homes. By noon the
            rain had stopped, but the water kept rising, and the road to the valley was closed to all traffic.
            """;

    private static long simhashOf(String html) {
        return PageParser.parseHere(html.getBytes(StandardCharsets.UTF_8), "utf-8", "http://a.test/", null, ContentRequest.NONE).simhash();
    }

    @Test
    void sha256IsTheStandardOne() {
        assertThat(Fingerprints.sha256("abc".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"); // FIPS 180-2's example
    }

    @Test
    void aTimestampMovesAFewBitsARewriteMovesMany() {
        long page = simhashOf("<p>" + ARTICLE + "</p><p>updated 10:00:01, 1204 readers</p>");
        long stamped = simhashOf("<p>" + ARTICLE + "</p><p>updated 10:05:17, 1219 readers</p>");
        long rewritten = simhashOf("<p>" + ARTICLE.replace("river", "sea").replace("morning", "evening")
                .replace("Volunteers carried sandbags", "Nobody came") + "</p><p>A new paragraph about the"
                + " election results, the turnout, and what the mayor said on the steps of the town hall.</p>");
        assertThat(Fingerprints.distance(page, stamped)).isLessThanOrEqualTo(Fingerprints.NEAR);
        assertThat(Fingerprints.distance(page, rewritten)).isGreaterThan(Fingerprints.NEAR);
        assertThat(simhashOf("<p>" + ARTICLE + "</p>")).isEqualTo(Fingerprints.simhash(ARTICLE));
    }

    @Test
    void onlyVisibleTextCounts() {
        long plain = simhashOf("<body><p>" + ARTICLE + "</p></body>");
        long withHidden = simhashOf("<head><title>a title</title><style>p { color: red }</style></head><body><p>"
                + ARTICLE + "</p><script>var tracking = 'a b c d e f';</script><noscript>enable scripts</noscript>"
                + "<template>x y z w</template></body>");
        assertThat(withHidden).isEqualTo(plain);
        assertThat(Fingerprints.simhash("")).isZero();
        assertThat(Fingerprints.simhash("two words")).isNotZero();
    }

    @Test
    void nearDuplicatesAreFoundThroughTheirBlocks() {
        NearDuplicates<String> index = new NearDuplicates<>();
        long a = 0x0123_4567_89ab_cdefL;
        index.add(a, "a");
        assertThat(index.find(a ^ 0b111)).isEqualTo("a"); // three bits in one block
        assertThat(index.find(a ^ (1L | 1L << 20 | 1L << 40))).isEqualTo("a"); // three bits in three blocks
        assertThat(index.find(a ^ 0b1111)).isNull(); // four bits
        index.add(a ^ 1, "b");
        assertThat(index.findAll(a)).containsExactly("a", "b");
    }

    /** The bit-sliced votes give what a plain counter per bit gives, on texts of every size. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {3, 4, 10, 100, 1_000, 20_000})
    void bitSlicedVotesAgreeWithACounterPerBit(int wordCount) {
        java.util.Random random = new java.util.Random(wordCount);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < wordCount; i++) {
            text.append(ARTICLE.split("\\s+")[random.nextInt(40)]).append(random.nextInt(9) == 0 ? "é " : " ");
        }
        assertThat(Fingerprints.simhash(text.toString())).isEqualTo(plainSimhash(text.toString()));
    }

    /** The same SimHash, one counter per bit: the oracle. */
    private static long plainSimhash(String text) {
        java.util.List<Long> words = new java.util.ArrayList<>();
        for (String w : text.split("[^\\p{L}\\p{Nd}]+")) {
            if (w.isEmpty()) {
                continue;
            }
            boolean number = w.chars().allMatch(c -> c >= '0' && c <= '9');
            long h = 0xcbf29ce484222325L;
            for (char c : w.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
                h = (h ^ c) * 0x100000001b3L;
            }
            words.add(number ? 0x9e3779b97f4a7c15L : h);
        }
        int[] votes = new int[64];
        for (int i = 2; i < words.size(); i++) {
            long h = mix(words.get(i - 2) ^ Long.rotateLeft(words.get(i - 1), 21) ^ Long.rotateLeft(words.get(i), 42));
            for (int b = 0; b < 64; b++) {
                votes[b] += ((h >>> b) & 1) == 1 ? 1 : -1;
            }
        }
        long value = 0;
        for (int b = 0; b < 64; b++) {
            if (votes[b] > 0) {
                value |= 1L << b;
            }
        }
        return value;
    }

    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
