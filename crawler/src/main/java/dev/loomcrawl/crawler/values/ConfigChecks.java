package dev.loomcrawl.crawler.values;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.loomcrawl.crawler.url.Hosts;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The checks a {@link CrawlConfig} runs as it is built: each failure names the field and the bad value. */
final class ConfigChecks {
    /** Header names the JDK client sets itself and refuses from callers: a job may not give them. */
    private static final List<String> RESTRICTED_HEADERS = List.of("connection", "content-length", "expect", "host",
            "upgrade");

    private ConfigChecks() {}

    static void requireRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new ConfigException(field, value, "must be between " + min + " and " + max + ", was " + value);
        }
    }

    static void requireDuration(String field, Duration value, Duration min, Duration max) {
        if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new ConfigException(field, value, "must be between " + min.toMillis() + " ms and " + max.toMillis()
                    + " ms, was " + (value == null ? "null" : value.toMillis() + " ms"));
        }
    }

    static boolean hasLineBreak(String s) {
        return s.indexOf('\r') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\0') >= 0;
    }

    static Map<String, String> checkHeaders(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String field = "headers." + name;
            if (name == null || !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new ConfigException(field, name, "is not a valid header name");
            }
            if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new ConfigException(field, name, "is set by the HTTP client itself and cannot be given");
            }
            if (value == null || hasLineBreak(value)) {
                throw new ConfigException(field, value, "must be one line of text");
            }
            out.put(name, value.strip());
        });
        return Map.copyOf(out);
    }

    /** The hosts in the one spelling URLs' hosts have ({@link Hosts}), so that each matches what a link names. */
    static Set<String> checkHosts(Set<String> hosts) {
        Set<String> out = new LinkedHashSet<>();
        for (String h : hosts) {
            out.add(host("allowedHosts", h, h == null ? "" : h.strip()));
        }
        return Set.copyOf(out);
    }

    private static String host(String field, String given, String host) {
        if (host.isEmpty()) {
            throw new ConfigException(field, given, "holds an empty name");
        }
        try {
            return Hosts.canonical(host);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(field, given, "holds a bad host name '" + given + "': " + e.getMessage());
        }
    }

    static Set<String> checkDomains(Set<String> domains) {
        Set<String> out = new LinkedHashSet<>();
        for (String d : domains) {
            String domain = d == null ? "" : d.strip();
            while (domain.startsWith(".") || domain.startsWith("*.")) {
                domain = domain.substring(domain.indexOf('.') + 1);
            }
            domain = host("allowedDomains", d, domain);
            if (PolitenessKey.publicSuffix(domain)) {
                throw new ConfigException("allowedDomains", d, "holds '" + d + "', a public suffix: it would admit"
                        + " unrelated sites; give a domain under it, like example." + domain);
            }
            out.add(domain);
        }
        return Set.copyOf(out);
    }

    /**
     * Allow and deny patterns are RE2 syntax ({@link com.google.re2j}): they match in time linear in the URL, so no
     * pattern can stall a crawl ({@code (a+)+$} on a long URL takes a backtracking engine years); what RE2
     * cannot run in linear time (backreferences, lookaround) is refused.
     */
    static List<String> checkPatterns(String field, List<String> patterns) {
        for (int i = 0; i < patterns.size(); i++) {
            try {
                Pattern.compile(patterns.get(i));
            } catch (PatternSyntaxException | NullPointerException e) {
                throw new ConfigException(field + "[" + i + "]", patterns.get(i),
                        "is not a regular expression RE2 runs in linear time (no backreferences, no lookaround): "
                                + (e.getMessage() == null ? "null" : e.getMessage().lines().findFirst().orElse("")));
            }
        }
        return List.copyOf(patterns);
    }

    static Set<String> checkTypes(Set<String> types) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : types) {
            String type = t == null ? "" : t.strip().toLowerCase(Locale.ROOT);
            if (!type.matches("[a-z0-9!#$&^_.+-]+/([a-z0-9!#$&^_.+-]+|\\*)")) {
                throw new ConfigException("acceptTypes", t, "holds '" + t + "', not a media type like application/pdf"
                        + " or image/*");
            }
            out.add(type);
        }
        return Set.copyOf(out);
    }

    static Map<String, String> checkRules(String field, Map<String, String> rules) {
        Map<String, String> out = new LinkedHashMap<>();
        rules.forEach((name, rule) -> {
            ExtractRule.parse(field, name, rule, false); // throws naming the field and the rule
            out.put(name, rule);
        });
        return Collections.unmodifiableMap(out); // keeps the order given
    }

    /** Whether {@code domain} is itself a public suffix ({@code com}, {@code co.uk}, {@code github.io}). */
}
