package dev.loomcrawl.crawler.store;

import dev.loomcrawl.crawler.content.NearDuplicates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's stored pages grouped by near-identical text: two pages whose SimHashes differ in at most 3 bits are
 * in one group, and so, transitively, are their neighbours'. Candidates come from a {@link NearDuplicates}
 * index, so pages are never compared all against all.
 */
public final class NearDuplicateGroups {
    /** A page of a group: what the export shows of it. */
    public record Page(String url, long simhash, String title) {}

    private NearDuplicateGroups() {}

    /** Groups of two or more pages, each in the order stored, groups in the order of their first page. */
    static List<List<Page>> of(Readers readers, long jobId, boolean hashKey) {
        List<Page> pages = new ArrayList<>();
        readers.stream("SELECT url, simhash, title FROM pages WHERE job_id = ? AND simhash IS NOT NULL"
                + " AND failure IS NULL ORDER BY job_id, " + (hashKey ? "seq" : "url"),
                rs -> pages.add(new Page(rs.getString(1), rs.getLong(2), rs.getString(3))), jobId);
        int[] parent = new int[pages.size()];
        NearDuplicates<Integer> index = new NearDuplicates<>();
        for (int i = 0; i < pages.size(); i++) {
            parent[i] = i;
            long h = pages.get(i).simhash();
            for (int j : index.findAll(h)) {
                union(parent, i, j);
            }
            index.add(h, i);
        }
        Map<Integer, List<Page>> groups = new LinkedHashMap<>();
        for (int i = 0; i < pages.size(); i++) {
            groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(pages.get(i));
        }
        return groups.values().stream().filter(g -> g.size() > 1).toList();
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb); // the earlier page leads the group
        }
    }
}
