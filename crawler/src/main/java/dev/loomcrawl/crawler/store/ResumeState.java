package dev.loomcrawl.crawler.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a job had admitted and stored when its last process stopped.
 *
 * @param admitted every URL it had admitted, shallowest first
 * @param stored the URLs it stored a result for: done, never fetched again
 */
public record ResumeState(List<Admitted> admitted, Set<String> stored) {

    /**
     * What a job had admitted and stored, to resume it. Admissions are a log (see {@link Schema}): a URL's rows
     * fold into one, its first admission's redirects and referrer with the least depth any row gave it. Jobs of
     * earlier versions kept theirs in the frontier table, read alike.
     */
    static ResumeState read(Readers readers, long jobId) {
        Map<String, Admitted> byUrl = new LinkedHashMap<>();
        for (String table : List.of("frontier", "admissions")) {
            readers.stream("SELECT url, depth, redirects, referrer FROM " + table + " WHERE job_id = ?", rs -> {
                Admitted row = new Admitted(jobId, rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4));
                byUrl.merge(row.url(), row, ResumeState::fold);
            }, jobId);
        }
        List<Admitted> admitted = new ArrayList<>(byUrl.size());
        for (Admitted a : byUrl.values()) { // a depth fix whose admission is missing: admitted directly
            admitted.add(a.redirects() != Admitted.DEPTH_ONLY ? a : new Admitted(jobId, a.url(), a.depth(), 0, null));
        }
        admitted.sort(Comparator.comparingInt(Admitted::depth)); // shallowest first, as the frontier queues them
        Set<String> stored = new HashSet<>();
        readers.stream("SELECT url FROM pages WHERE job_id = ?", rs -> stored.add(rs.getString(1)), jobId);
        return new ResumeState(admitted, stored);
    }

    /** Two rows of the admissions log for one URL as one: the admission's details, the least depth. */
    private static Admitted fold(Admitted a, Admitted b) {
        Admitted admission = a.redirects() == Admitted.DEPTH_ONLY ? b : a;
        int depth = Math.min(a.depth(), b.depth());
        return depth == admission.depth() ? admission
                : new Admitted(admission.jobId(), admission.url(), depth, admission.redirects(), admission.referrer());
    }
}

