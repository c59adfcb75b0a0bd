package dev.loomcrawl.crawler.values;

import java.util.ArrayList;
import java.util.List;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;
import org.jsoup.select.Selector;
import org.jspecify.annotations.Nullable;

/**
 * One extraction rule of a job: {@code NAME=CSS} keeps the text of the first match, {@code NAME=CSS@ATTR} an
 * attribute of it ({@code @abs:href} resolves it against the page), an "all" rule every match, as a list.
 * Checked when the job's config is built; applied by {@code parse.Extraction}.
 */
public record ExtractRule(String name, Evaluator selector, @Nullable String attribute, boolean all) {

    /**
     * @param field where the rule came from ({@code extract}, {@code extractAll}), for the error
     * @throws ConfigException naming the field, the rule's name and its selector
     */
    public static ExtractRule parse(String field, String name, String spec, boolean all) {
        String where = field + "." + name;
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}")) {
            throw new ConfigException(field, name, "has a bad name '" + name
                    + "': use letters, digits, '_', '-' and '.', starting with a letter");
        }
        if (spec == null || spec.isBlank()) {
            throw new ConfigException(where, spec, "needs a CSS selector, like 'title' or 'a@href'");
        }
        int at = spec.lastIndexOf('@');
        String css = (at < 0 ? spec : spec.substring(0, at)).strip();
        String attribute = at < 0 ? null : spec.substring(at + 1).strip();
        if (attribute != null && attribute.isEmpty()) {
            throw new ConfigException(where, spec, "names no attribute after '@' in '" + spec + "'");
        }
        try {
            return new ExtractRule(name, QueryParser.parse(css), attribute, all);
        } catch (Selector.SelectorParseException | IllegalArgumentException e) {
            throw new ConfigException(where, spec, "is not a valid CSS selector: '" + css + "' (" + e.getMessage()
                    + ")");
        }
    }

    /** The rule's value in {@code doc}: a string, a list of them, or null. */
    public @Nullable Object apply(Document doc) {
        if (!all) {
            Element first = doc.selectFirst(selector);
            return first == null ? null : valueOf(first);
        }
        List<String> values = new ArrayList<>();
        for (Element e : doc.select(selector)) {
            String v = valueOf(e);
            if (v != null && !v.isEmpty()) {
                values.add(v);
            }
        }
        return values;
    }

    private @Nullable String valueOf(Element e) {
        if (attribute == null) {
            return e.text();
        }
        return e.hasAttr(attribute) || attribute.startsWith("abs:") ? e.attr(attribute) : null;
    }
}
