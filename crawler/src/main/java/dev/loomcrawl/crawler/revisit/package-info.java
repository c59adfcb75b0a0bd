/**
 * Keeping a site fresh: what a visit of a stored URL found ({@link dev.loomcrawl.crawler.revisit.ChangeDetector}),
 * when to visit it next ({@link dev.loomcrawl.crawler.revisit.RevisitSchedule}), and where the change events go
 * ({@link dev.loomcrawl.crawler.revisit.WebhookDelivery}); pages that nearly duplicate one another are found by
 * their SimHash ({@code content.Fingerprints}, {@code content.NearDuplicates}). The frontier runs revisits as it runs first visits:
 * the same host permits, robots.txt, {@code Retry-After} and scope.
 */
@NullMarked
package dev.loomcrawl.crawler.revisit;

import org.jspecify.annotations.NullMarked;
