package dev.loomcrawl.crawler.values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Text a page gave us as every writer can write it: a lone surrogate becomes U+FFFD, as the Infra Standard's
 * "scalar value string" makes it. A page's {@code &#xD800;} is one: the HTML Standard reads it as U+FFFD, jsoup
 * keeps it. UTF-8 has no bytes for it, so Jackson's CSV writer fails on it (the whole export with it),
 * {@code Files.writeString} too, and JSON readers disagree about its escape.
 */
public final class ScalarValues {
    private ScalarValues() {}

    /** {@code s} with each lone surrogate U+FFFD; {@code s} itself when it has none. */
    public static @Nullable String of(@Nullable String s) {
        if (s == null) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return replaced(s, i);
            }
        }
        return s;
    }

    /** Extracted fields ({@link PageRecord#fields()}: strings and lists of strings) as {@link #of(String)} makes each. */
    public static Map<String, Object> of(Map<String, Object> fields) {
        Map<String, Object> made = null;
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            Object value = e.getValue();
            Object wellFormed = value instanceof String s ? of(s) : value instanceof List<?> list ? of(list) : value;
            if (wellFormed != value && made == null) {
                made = new LinkedHashMap<>(fields);
            }
            if (made != null) {
                made.put(e.getKey(), wellFormed);
            }
        }
        return made == null ? fields : made;
    }

    private static List<?> of(List<?> values) {
        List<Object> made = null;
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            Object wellFormed = value instanceof String s ? of(s) : value;
            if (wellFormed != value && made == null) {
                made = new ArrayList<>(values);
            }
            if (made != null) {
                made.set(i, wellFormed);
            }
        }
        return made == null ? values : made;
    }

    private static String replaced(String s, int from) {
        StringBuilder b = new StringBuilder(s.length()).append(s, 0, from);
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else {
                b.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return b.toString();
    }
}
