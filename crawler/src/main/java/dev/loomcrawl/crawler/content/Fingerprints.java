package dev.loomcrawl.crawler.content;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What identifies a page's content: a SHA-256 digest of its body (the same bytes, the same page) and a 64-bit
 * SimHash of its visible text (nearly the same words, nearly the same bits).
 *
 * <p>The SimHash is Charikar's, over word 3-shingles as Manku, Jain and Das Sarma used it for the web (WWW
 * 2007, "Detecting near-duplicates for web crawling"): each shingle's 64-bit hash votes +1 or -1 on each bit,
 * and a bit of the result is set where its votes are positive. Pages whose SimHashes differ in at most
 * {@link #NEAR} bits are near-duplicates; a rewritten paragraph moves many.
 *
 * <p>Words are runs of letters and digits, but in scripts written without spaces each character is one
 * ({@link SimHash}). Numbers are folded: every run of digits counts as the same word. A timestamp, a visitor
 * counter or a session number that changes then moves no bit at all, where on a page of a few hundred words its
 * dozen new shingles would move three or four bits of 64 (about as many as an edited sentence), and a page that
 * only counts time would be told apart from itself.
 */
public final class Fingerprints {
    /** Most bits two near-duplicates' SimHashes differ in (the paper's k = 3 for 64-bit fingerprints). */
    public static final int NEAR = NearDuplicates.NEAR;

    private static final HexFormat HEX = HexFormat.of();

    private Fingerprints() {}

    /** SHA-256 of {@code body}, 64 lower-case hex digits. */
    public static String sha256(byte[] body) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e); // required of every Java platform
        }
    }

    /** Bits in which two SimHashes differ. */
    public static int distance(long a, long b) {
        return Long.bitCount(a ^ b);
    }

    /** The SimHash of {@code text}'s words. */
    public static long simhash(String text) {
        SimHash h = new SimHash();
        h.add(text);
        return h.value();
    }

    /**
     * A SimHash made as text comes, a piece at a time (a page's text nodes, in order): words are runs of letters
     * and digits, lower-cased, and each character of a script written without spaces ({@link #unspaced});
     * a word split across two pieces counts as two.
     *
     * <p>Each shingle's hash votes on the 64 bits through bit-sliced counters: {@code planes[p]} holds bit
     * {@code p} of the count of set bits at each of the 64 positions, and adding a hash is a ripple of
     * carries, six steps on average (until the longest of the 64 carries ends), where a counter per position
     * costs 64 additions. A crawl runs C1 alone (see {@code conf/jvm.options}), which vectorises nothing: the
     * 64 additions took six times as long on a farm page of 5 KB (30 against 180 µs), a third of the page's CPU.
     */
    public static final class SimHash {
        private static final long FNV_OFFSET = 0xcbf29ce484222325L;
        private static final long FNV_PRIME = 0x100000001b3L;
        /** The one word every number is. */
        private static final long NUMBER = 0x9e3779b97f4a7c15L;
        /** Per ASCII character: itself lower-cased when it is a letter or digit, else 0 (a separator). */
        private static final char[] ASCII = new char[128];

        static {
            for (char c = 0; c < 128; c++) {
                ASCII[c] = Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : 0;
            }
        }

        private final long[] planes = new long[32];
        private int shingles;
        private long previous;
        private long beforePrevious;
        private int words;

        public void add(String text) {
            long word = FNV_OFFSET;
            boolean inWord = false;
            boolean number = true;
            for (int i = 0, n = text.length(); i < n; i++) {
                char c = text.charAt(i);
                boolean alone = c >= 0x0E00 && unspaced(c); // a word of its own: it ends the word before it
                char lower = c < 128 ? ASCII[c] : !alone && Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : 0;
                if (lower != 0) {
                    word = (word ^ lower) * FNV_PRIME;
                    number &= lower <= '9';
                    inWord = true;
                } else if (inWord) {
                    word(number ? NUMBER : word);
                    word = FNV_OFFSET;
                    inWord = false;
                    number = true;
                }
                if (alone && isWordCharacter(c)) {
                    word((FNV_OFFSET ^ c) * FNV_PRIME);
                }
            }
            if (inWord) {
                word(number ? NUMBER : word);
            }
        }

        /**
         * Whether {@code c} belongs to a script written without spaces between words (Chinese, Japanese kana,
         * Thai, Lao, Khmer, Myanmar), where a "word" of letters would be a whole clause or paragraph and one word
         * changed would move half the bits: each such character is a word, so shingles are character trigrams.
         */
        private static boolean unspaced(char c) {
            return (c >= 0x0E00 && c <= 0x0EFF) || (c >= 0x1000 && c <= 0x109F) || (c >= 0x1780 && c <= 0x17FF)
                    || (c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) || (c >= 0x3400 && c <= 0x4DBF)
                    || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF66 && c <= 0xFF9F);
        }

        /** A letter, a digit, or a vowel or tone mark (Thai writes them as marks beside their consonant). */
        private static boolean isWordCharacter(char c) {
            int type = Character.getType(c);
            return Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK;
        }

        private void word(long hash) {
            words++;
            if (words >= 3) {
                vote(mix(beforePrevious ^ Long.rotateLeft(previous, 21) ^ Long.rotateLeft(hash, 42)));
            }
            beforePrevious = previous;
            previous = hash;
        }

        private void vote(long shingle) {
            shingles++;
            long carry = shingle;
            for (int p = 0; carry != 0; p++) {
                long both = planes[p] & carry;
                planes[p] ^= carry;
                carry = both;
            }
        }

        /** The fingerprint; a text of fewer than three words is hashed as one shingle of them (none: 0). */
        public long value() {
            if (words > 0 && words < 3) {
                return mix(beforePrevious ^ Long.rotateLeft(previous, 21));
            }
            int used = 32 - Integer.numberOfLeadingZeros(shingles);
            long value = 0;
            for (int bit = 0; bit < 64; bit++) {
                long count = 0;
                for (int p = 0; p < used; p++) {
                    count |= ((planes[p] >>> bit) & 1L) << p;
                }
                if (2 * count > shingles) { // more votes for 1 than for 0
                    value |= 1L << bit;
                }
            }
            return value;
        }

        /** MurmurHash3's 64-bit finaliser: every input bit reaches every output bit. */
        private static long mix(long h) {
            h ^= h >>> 33;
            h *= 0xff51afd7ed558ccdL;
            h ^= h >>> 33;
            h *= 0xc4ceb9fe1a85ec53L;
            return h ^ (h >>> 33);
        }
    }
}
