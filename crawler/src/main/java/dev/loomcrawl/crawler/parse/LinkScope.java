package dev.loomcrawl.crawler.parse;

import com.google.re2j.Pattern;
import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which links a job follows: hosts allowed exactly ({@code *}: any), domains allowed with all their
 * subdomains (never a public suffix: checked against the Public Suffix List by crawler-commons'
 * {@code EffectiveTldFinder}, in {@link CrawlConfig}), matching an allow pattern when there are any, and neither matching a
 * deny pattern nor looking like a trap. With no host and no domain given, the seeds' hosts are the scope.
 */
public final class LinkScope {
    private final boolean anyHost;
    private final Set<String> hosts;
    private final List<String> domainSuffixes;
    private final List<Pattern> allow;
    private final List<Pattern> deny;

    private LinkScope(boolean anyHost, Set<String> hosts, List<String> domains, List<Pattern> allow, List<Pattern> deny) {
        this.anyHost = anyHost;
        this.hosts = hosts;
        this.domainSuffixes = domains.stream().map(d -> "." + d).toList();
        this.allow = allow;
        this.deny = deny;
    }

    public static LinkScope of(CrawlConfig config) {
        Set<String> hosts = new HashSet<>(config.scope().allowedHosts());
        if (hosts.isEmpty() && config.scope().allowedDomains().isEmpty()) {
            config.scope().seeds().forEach(seed -> hosts.add(seed.host()));
        }
        return new LinkScope(hosts.contains("*"), Set.copyOf(hosts), List.copyOf(config.scope().allowedDomains()),
                compiled(config.scope().allowPatterns()), compiled(config.scope().denyPatterns()));
    }

    private static List<Pattern> compiled(List<String> patterns) {
        return patterns.stream().map(Pattern::compile).toList();
    }

    public boolean allows(CrawlUrl url) {
        return hostAllowed(url.host()) && (allow.isEmpty() || anyFinds(allow, url.url())) && !anyFinds(deny, url.url())
                && !TrapFilter.looksLikeTrap(url);
    }

    boolean hostAllowed(String host) {
        if (anyHost || hosts.contains(host)) {
            return true;
        }
        for (String suffix : domainSuffixes) {
            if (host.endsWith(suffix) || host.length() == suffix.length() - 1 && suffix.endsWith(host)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyFinds(List<Pattern> patterns, String url) {
        for (Pattern p : patterns) {
            if (p.matcher(url).find()) {
                return true;
            }
        }
        return false;
    }
}
