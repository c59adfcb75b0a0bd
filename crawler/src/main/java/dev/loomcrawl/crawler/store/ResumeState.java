package dev.loomcrawl.crawler.store;

import java.util.List;
import java.util.Set;

/**
 * What a job had admitted and stored when its last process stopped.
 *
 * @param admitted every URL it had admitted, shallowest first
 * @param stored the URLs it stored a result for: done, never fetched again
 */
public record ResumeState(List<Admitted> admitted, Set<String> stored) {}
