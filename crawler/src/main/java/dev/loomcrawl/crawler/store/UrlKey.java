package dev.loomcrawl.crawler.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The key of a page's row in an H2 database made by this version: {@code (job_id, url_hash)}, a 62-bit hash
 * of the URL, where earlier versions (and PostgreSQL) key the row by the URL itself.
 *
 * <p>Why: H2 keeps its index in a B-tree that it writes anew at every checkpoint, leaf by leaf, and a crawl's
 * URLs land all over the tree. Long URL strings as keys made that index the largest single cost of a long
 * crawl (README, "Speed"); eight-byte numbers make leaves that hold many more entries and compare faster.
 *
 * <p>Two URLs of one job may share a hash. The rule is linear probing, exact for any hash: a URL's row sits at
 * the first key from its hash upwards that was free when it was stored, so every key between its hash and its
 * row holds another URL. Rows of a job are never deleted one by one (a job's rows go together), so that stays
 * true, and a URL is found by reading keys upwards from its hash until its row or a free key. A 62-bit hash
 * leaves room above it: the chain never wraps.
 */
final class UrlKey {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private UrlKey() {}

    /**
     * The hash of {@code url}: FNV-1a over its UTF-16 code units (for ASCII, the same as over its bytes),
     * then MurmurHash3's 64-bit finaliser so that every bit of the input reaches the high bits the B-tree
     * orders by; the top two bits are dropped. It is stored in the database: never change it.
     */
    static long hash(String url) {
        long h = FNV_OFFSET;
        for (int i = 0; i < url.length(); i++) {
            h = (h ^ url.charAt(i)) * FNV_PRIME;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h >>> 2;
    }

    /** How many keys {@link #find} reads at a time. */
    private static final int READ = 8;
    /** The query {@link #find} runs: prepare it once per connection. */
    static final String CHAIN_SQL = "SELECT url_hash, url FROM pages WHERE job_id = ? AND url_hash >= ?"
            + " ORDER BY job_id, url_hash LIMIT " + READ;

    /** Where a URL's row is ({@code found}), or else the first free key of its chain, where it would go. */
    record Slot(long key, boolean found) {}

    /**
     * Finds {@code url}'s slot by reading the job's keys upwards from the URL's hash, {@value #READ} at a time.
     *
     * @param chain {@link #CHAIN_SQL}, prepared
     */
    static Slot find(PreparedStatement chain, long jobId, String url) throws SQLException {
        long expected = hash(url);
        while (true) {
            chain.setLong(1, jobId);
            chain.setLong(2, expected);
            int rows = 0;
            try (ResultSet rs = chain.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    if (rs.getLong(1) != expected) {
                        return new Slot(expected, false); // a gap: the chain ends here
                    }
                    if (rs.getString(2).equals(url)) {
                        return new Slot(expected, true);
                    }
                    expected++;
                }
            }
            if (rows < READ) {
                return new Slot(expected, false); // no rows left above: the chain ends here
            }
        }
    }
}
