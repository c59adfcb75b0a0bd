package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * SimHashes indexed so that those within {@value #NEAR} bits of a new one are found without comparing
 * it with every other: the 64 bits are cut into four 16-bit blocks, and two hashes that differ in at most three
 * bits agree on at least one whole block (three changed bits touch three blocks at most), so a hash's
 * candidates are those that share one of its blocks (Manku, Jain and Das Sarma's tables, with four blocks).
 * Not thread-safe: callers lock.
 *
 * @param <T> what each hash stands for (a URL)
 */
public final class NearDuplicates<T> {
    /** Most bits two near-duplicates' SimHashes differ in (the paper's k = 3 for 64-bit fingerprints). */
    public static final int NEAR = 3;

    private final List<Map<Integer, List<Entry<T>>>> blocks = List.of(new HashMap<>(), new HashMap<>(),
            new HashMap<>(), new HashMap<>());

    private record Entry<T>(long simhash, T value) {}

    /** The first indexed value whose hash is within {@value #NEAR} bits of {@code simhash}, or null. */
    public @Nullable T find(long simhash) {
        for (int b = 0; b < 4; b++) {
            List<Entry<T>> same = blocks.get(b).get(block(simhash, b));
            if (same != null) {
                for (Entry<T> e : same) {
                    if (Long.bitCount(e.simhash() ^ simhash) <= NEAR) {
                        return e.value();
                    }
                }
            }
        }
        return null;
    }

    /** Every indexed value within {@value #NEAR} bits of {@code simhash}, each once. */
    public List<T> findAll(long simhash) {
        List<T> found = new ArrayList<>();
        Set<Entry<T>> seen = new HashSet<>();
        for (int b = 0; b < 4; b++) {
            for (Entry<T> e : blocks.get(b).getOrDefault(block(simhash, b), List.of())) {
                if (Long.bitCount(e.simhash() ^ simhash) <= NEAR && seen.add(e)) {
                    found.add(e.value());
                }
            }
        }
        return found;
    }

    public void add(long simhash, T value) {
        Entry<T> entry = new Entry<>(simhash, value);
        for (int b = 0; b < 4; b++) {
            blocks.get(b).computeIfAbsent(block(simhash, b), k -> new ArrayList<>(1)).add(entry);
        }
    }

    private static int block(long simhash, int b) {
        return (int) (simhash >>> (16 * b)) & 0xffff;
    }
}
