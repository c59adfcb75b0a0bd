package dev.loomcrawl.crawler.content;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;

/**
 * A {@code pre} as a fenced code block: its text exactly as written (no white space folded, no mark escaped),
 * fenced by more backticks than it holds in a row, the fence naming its language when the page names it.
 */
final class MarkdownCode {
    private static final Pattern LANGUAGE = Pattern.compile("(?:language|lang)-([A-Za-z0-9_+#.-]{1,30})");

    private MarkdownCode() {}

    /** The code in Markdown, or as plain text; "" when it is blank. */
    static String fenced(Element pre, boolean markdown) {
        String code = pre.wholeText().stripTrailing();
        while (code.startsWith("\n")) {
            code = code.substring(1);
        }
        if (code.isBlank() || !markdown) {
            return code;
        }
        String fence = MarkdownMarks.ticksAround(code, 3);
        return fence + language(pre) + "\n" + code + "\n" + fence;
    }

    /**
     * The code's language, as highlighters name it in a class of the {@code pre} or its {@code code}
     * ({@code language-python}, {@code lang-js}: Prism, highlight.js, GitHub, the CommonMark convention), for the
     * fence's info string; "" when none is named.
     */
    private static String language(Element pre) {
        Element code = pre.firstElementChild();
        for (Element e : code != null && code.nameIs("code") ? List.of(pre, code) : List.of(pre)) {
            for (String name : e.classNames()) {
                Matcher m = LANGUAGE.matcher(name);
                if (m.matches()) {
                    return m.group(1).toLowerCase(Locale.ROOT);
                }
            }
        }
        return "";
    }
}
