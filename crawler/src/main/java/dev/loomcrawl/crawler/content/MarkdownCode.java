package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;

/**
 * A {@code pre} as a fenced code block: its text exactly as written (no white space folded, no mark escaped),
 * fenced by more backticks than it holds in a row, the fence naming its language when the page names it.
 */
final class MarkdownCode {
    /**
     * A class naming the code's language: {@code language-python} and {@code lang-js} (Prism, highlight.js, Hugo,
     * the CommonMark convention), Sphinx's {@code highlight-python3} and GitHub's {@code highlight-source-js}.
     */
    private static final Pattern LANGUAGE = Pattern.compile("(?:language|lang|highlight-source|highlight)-(.+)");
    /** A language's name as an info string may hold it (no backtick, no space). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_+#.-]{1,30}");
    /** Names that say the highlighter chose, or that there is no language: no info string. */
    private static final Set<String> NO_LANGUAGE = Set.of("default", "none", "plain", "plaintext", "nohighlight");
    /** How far above the {@code pre} a wrapper may name the language (Jekyll's Rouge: two {@code div}s up). */
    private static final int WRAPPERS = 2;

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
     * The code's language, as highlighters name it ({@link #LANGUAGE}) on the {@code pre}, its {@code code} or the
     * wrappers highlighters put around it, or in a {@code data-lang}, for the fence's info string; "" when none is
     * named.
     */
    private static String language(Element pre) {
        List<Element> named = new ArrayList<>(List.of(pre));
        Element code = pre.firstElementChild();
        if (code != null && code.nameIs("code")) {
            named.add(code);
        }
        Element up = pre.parent();
        for (int level = 0; level < WRAPPERS && up != null && up.nameIs("div"); level++, up = up.parent()) {
            named.add(up);
        }
        for (Element e : named) {
            String language = name(e.attr("data-lang"));
            for (String name : e.classNames()) {
                Matcher m = LANGUAGE.matcher(name);
                if (language.isEmpty() && m.matches()) {
                    language = name(m.group(1));
                }
            }
            if (!language.isEmpty()) {
                return language;
            }
        }
        return "";
    }

    /** {@code named} as a fence's info string, lower case; "" when it is no language's name. */
    private static String name(String named) {
        String name = named.toLowerCase(Locale.ROOT);
        return NAME.matcher(name).matches() && !NO_LANGUAGE.contains(name) ? name : "";
    }
}
