package dev.loomcrawl.crawler.values;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Text a server gave us as every writer and store can keep it: a lone surrogate and a NUL become U+FFFD. A lone
 * surrogate is what a page's {@code &#xD800;} is (the HTML Standard reads U+FFFD, jsoup keeps it): UTF-8 has no
 * bytes for it, so Jackson's CSV writer fails on it, the whole export with it, and {@code Files.writeString} too.
 * A NUL is what the JDK quotes when it refuses a header that holds one: PostgreSQL keeps none in text, and one
 * such row failed its whole batch, and with it the job.
 */
public final class SafeText {
    private SafeText() {}

    /** {@code s} with each lone surrogate and NUL U+FFFD; {@code s} itself when it has none. */
    public static @Nullable String of(@Nullable String s) {
        return s == null ? null : text(s);
    }

    /** As {@link #of(String)}, of text that is there. */
    public static String text(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || Character.isSurrogate(c)) {
                return replaced(s, i);
            }
        }
        return s;
    }

    /** Extracted fields ({@link PageRecord#fields()}: strings and lists of strings) as {@link #of(String)} makes each. */
    public static Map<String, Object> of(Map<String, Object> fields) {
        if (fields.values().stream().allMatch(SafeText::kept)) {
            return fields; // nearly always: nothing copied
        }
        Map<String, Object> made = new LinkedHashMap<>();
        fields.forEach((name, value) -> made.put(name, value instanceof List<?> list
                ? list.stream().map(SafeText::ofValue).toList() : ofValue(value)));
        return made;
    }

    private static boolean kept(@Nullable Object value) {
        return value instanceof List<?> list ? list.stream().allMatch(SafeText::kept) : ofValue(value) == value;
    }

    private static @Nullable Object ofValue(@Nullable Object value) {
        return value instanceof String s ? of(s) : value;
    }

    private static String replaced(String s, int from) {
        StringBuilder b = new StringBuilder(s.length()).append(s, 0, from);
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                b.append(c).append(s.charAt(++i));
            } else {
                b.append(c == 0 || Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return b.toString();
    }
}
