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
        return PageParser.parseHere(html.getBytes(StandardCharsets.UTF_8), "utf-8", "http://a.test/", "loomcrawl", PageParser.Headers.NONE, ContentRequest.NONE).simhash();
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

    /**
     * Text in a script written without spaces between words (Chinese, Japanese, Thai) is shingled by its
     * characters, so a word changed moves as few bits as in English of the same length (the last row), and half
     * the page rewritten many. On pages this short any edit moves a few bits; {@link Fingerprints#NEAR} is for
     * pages of hundreds of words.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            昨夜から降り続いた雨で川の水位が上がり、朝には下町の一部が浸水した。ボランティアが橋まで土のうを運ぶ一方、町議会は学校の体育館に集まり、家を失った家族のために古い製粉所を避難所として開くかどうかを話し合った。昼には雨がやんだが、水位は上がり続け、谷へ向かう道路はすべての車両に対して通行止めとなった。町長は夕方に記者会見を開き、住民に高台への避難を呼びかけた。 | 町長 | 市長
            昨夜以来持续的降雨使河水上涨，到早上下城区的一部分已被淹没。志愿者把沙袋搬到桥边，镇议会则在学校礼堂开会，讨论是否把旧磨坊开放为失去家园的家庭的避难所。中午雨停了，但水位继续上涨，通往山谷的道路对所有车辆封闭。镇长傍晚召开记者会，呼吁居民向高处疏散。 | 镇长 | 市长
            ฝนที่ตกต่อเนื่องตั้งแต่เมื่อคืนทำให้ระดับน้ำในแม่น้ำสูงขึ้นและในตอนเช้าบางส่วนของเมืองด้านล่างถูกน้ำท่วม อาสาสมัครขนกระสอบทรายไปที่สะพานขณะที่สภาเมืองประชุมกันที่หอประชุมของโรงเรียนเพื่อตัดสินใจว่าจะเปิดโรงสีเก่าเป็นที่พักพิงสำหรับครอบครัวที่สูญเสียบ้านหรือไม่ ตอนเที่ยงฝนหยุดแล้วแต่น้ำยังคงสูงขึ้นและถนนไปยังหุบเขาถูกปิดสำหรับยานพาหนะทุกชนิด | อาสาสมัคร | ตำรวจ
            The river rose through the night and by morning the lower town was under water. Volunteers carried sandbags to the bridge while the council met in the school hall to decide whether the old mill should be opened as a shelter for the families who had lost their homes. By noon the rain had stopped, but the water kept rising, and the road to the valley was closed to all traffic. | river | stream
            """)
    void textWithoutSpacesIsShingledByCharacter(String article, String word, String replacement) {
        long page = Fingerprints.simhash(article);
        long edited = Fingerprints.simhash(article.replace(word, replacement));
        long other = Fingerprints.simhash(halfRewritten(article));
        assertThat(Fingerprints.distance(page, edited)).isLessThanOrEqualTo(8);
        assertThat(Fingerprints.distance(page, other)).isGreaterThanOrEqualTo(16);
    }

    /** The article's second half alone, then new text: a rewrite of half the page. */
    private static String halfRewritten(String article) {
        return article.substring(article.length() / 2) + new StringBuilder(article.substring(0, article.length() / 2)).reverse();
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
