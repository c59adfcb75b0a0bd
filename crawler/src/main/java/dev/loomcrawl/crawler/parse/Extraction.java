package dev.loomcrawl.crawler.parse;

import dev.loomcrawl.crawler.values.CrawlConfig;
import dev.loomcrawl.crawler.values.ExtractRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;

/**
 * A job's extraction rules, compiled once: {@code NAME=CSS} keeps the text of the first match,
 * {@code NAME=CSS@ATTR} an attribute of it ({@code @abs:href} resolves it against the page), and the
 * "all" rules every match, as a list.
 */
public final class Extraction {
    static final Extraction NONE = new Extraction(List.of());

    private final List<ExtractRule> rules;

    private Extraction(List<ExtractRule> rules) {
        this.rules = rules;
    }

    public static Extraction of(CrawlConfig config) {
        List<ExtractRule> rules = new ArrayList<>();
        config.output().extract().forEach((name, spec) -> rules.add(ExtractRule.parse("extract", name, spec, false)));
        config.output().extractAll()
                .forEach((name, spec) -> rules.add(ExtractRule.parse("extractAll", name, spec, true)));
        return rules.isEmpty() ? NONE : new Extraction(List.copyOf(rules));
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Each rule's value by name; a first-match rule that matched nothing is left out. */
    public Map<String, Object> apply(Document doc) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (ExtractRule rule : rules) {
            Object value = rule.apply(doc);
            if (value != null) {
                fields.put(rule.name(), value);
            }
        }
        return fields;
    }
}
