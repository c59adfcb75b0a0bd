package dev.loomcrawl.crawler.content;

import java.util.Locale;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * The content's title: the page's headline, a {@link MarkdownWriter#heading} line, put first as a level-1 heading,
 * unless the blocks written already begin with its words.
 */
final class MarkdownTitle {
    /** An emphasis mark: an asterisk not escaped. */
    private static final Pattern EMPHASIS = Pattern.compile("(?<!\\\\)\\*");
    /**
     * Class and id words of an article's lead: a standfirst, an intro, a summary; in other languages too. Not the
     * lead picture ({@code lead-asset}, {@code leadImage}), whose caption is no lead.
     */
    private static final Pattern LEAD = Pattern.compile("lead(?!erboard|-?(?:asset|image|img|media|photo|picture|"
            + "video))|intro|standfirst|subline|sub-?headline|"
            + "subtitle|epigraph|\\bdek\\b|summary|abstract|perex|bajada|chapo|chapeau|excerpt");
    /** A lead holds a sentence at least; shorter, it is a label ("Interview", a date). */
    private static final int LEAD_MIN = 40;

    private MarkdownTitle() {}

    /**
     * Whether an element is the article's lead beside its title: its class or id says so, it holds a sentence and
     * no picture; or it is a manual page's NAME, the command and what it does in a line ("git-commit - Record changes
     * to the repository"), which AsciiDoc's manual pages put in the page's header, beside the title.
     */
    static boolean isLead(Element e) {
        if (LEAD.matcher((e.className() + " " + e.id()).toLowerCase(Locale.ROOT)).find()) {
            return e.text().length() >= LEAD_MIN && e.selectFirst("figure, img, picture, video") == null;
        }
        Element heading = e.previousElementSibling();
        return heading != null && Headings.is(heading) && !heading.nameIs("h1") && heading.text().equals("NAME")
                && !e.text().isEmpty();
    }

    /** A heading line as the content's title: level 1 in Markdown, whatever its own level. */
    static String of(String headingLine, boolean markdown) {
        return markdown ? "#" + headingLine.substring(headingLine.indexOf(' ')) : headingLine;
    }

    /**
     * The blocks written, {@code text}, with the heading line {@code headingLine} as their title when they begin
     * with its words: as a heading of any level, or as a paragraph's first line, strong or not (the page's
     * {@code h1} outside them, the same words an {@code h2} or a bold line over a subtitle at their head); else null.
     */
    static @Nullable String begunWith(String text, String headingLine, boolean markdown) {
        if (!markdown) {
            return text.equals(headingLine) || text.startsWith(headingLine + "\n") ? text : null;
        }
        String words = headingLine.substring(headingLine.indexOf(' ') + 1);
        int level = 0;
        while (level < text.length() && text.charAt(level) == '#') {
            level++;
        }
        if (level > 0) {
            int end = level + 1 + words.length();
            boolean begun = text.startsWith(" ", level) && text.startsWith(words, level + 1)
                    && (end == text.length() || text.charAt(end) == '\n');
            return begun ? of(headingLine, true) + text.substring(end) : null;
        }
        int lineEnd = text.indexOf('\n');
        boolean hardBreak = lineEnd > 0 && text.charAt(lineEnd - 1) == '\\';
        String first = text.substring(0, lineEnd < 0 ? text.length() : hardBreak ? lineEnd - 1 : lineEnd);
        if (!unemphasised(first).equals(unemphasised(words))) {
            return null;
        }
        String rest = lineEnd < 0 ? "" : hardBreak ? "\n\n" + text.substring(lineEnd + 1) : text.substring(lineEnd);
        return of(headingLine, true) + rest;
    }

    /** Markdown without its emphasis marks: the asterisks not escaped. */
    private static String unemphasised(String markdown) {
        return EMPHASIS.matcher(markdown).replaceAll("");
    }
}
