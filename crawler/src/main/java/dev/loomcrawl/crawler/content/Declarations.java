package dev.loomcrawl.crawler.content;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * An API's declarations on its generated pages: a method's or a type's signature, named so by its class. Its words
 * are no forum post's "signature" ({@link Boilerplate}), and its links are the types it names, no box of links
 * ({@link MarkdownLeftOut}): a type alias's page is its title and its declaration, often all links, and a namespace's
 * page its tables of classes, functions and types.
 */
final class Declarations {
    /**
     * Javadoc's {@code member-signature} and {@code type-signature}; TypeDoc's {@code tsd-signature}, its parts
     * ({@code tsd-signature-type}) and the member's name in it ({@code tsd-kind-call-signature}); Doxygen's tables of
     * a page's members' declarations ({@code memberdecls}: a namespace's classes, all links to their pages).
     */
    static final String WORDS = "member-signature|type-signature|\\btsd-(?:[a-z]+-)*signature|\\bmemberdecls\\b";
    private static final Pattern DECLARATION = Pattern.compile(WORDS);

    private Declarations() {}

    /** Whether the block is a declaration by its class. */
    static boolean is(Element e) {
        String cls = e.className();
        return (cls.contains("signature") || cls.contains("memberdecls"))
                && DECLARATION.matcher(cls.toLowerCase(Locale.ROOT)).find();
    }

    /**
     * Doxygen's table of one member's declaration ({@code table.memname}, a cell a part): the table itself, the one
     * inside it when it sets that table beside the member's labels ({@code table.mlabels}: "static", "pure
     * virtual"), or null for any other table.
     */
    static @Nullable Element signature(Element table) {
        if (table.hasClass("memname")) {
            return table;
        }
        return table.hasClass("mlabels") ? table.selectFirst("table.memname") : null;
    }

    /**
     * A declaration set as a table's cells, as the one line it reads: {@code bool Json::Value::isNull() const},
     * not a table of its name, its parentheses and each parameter (a row each, as Doxygen lines them up); its labels
     * after it in brackets, as Doxygen's own text output writes them: {@code [pure virtual]}.
     *
     * @param table the table as the page has it, labels and all
     * @param declaration its {@link #signature}
     * @param cell a cell's inline content, written as the rest of the page is
     */
    static String line(Element table, Element declaration, Function<Element, String> cell, boolean markdown) {
        StringBuilder sb = new StringBuilder();
        boolean open = false;
        for (List<Element> row : MarkdownTable.rows(declaration)) {
            for (Element c : row) {
                String text = cell.apply(c).strip();
                if (text.isEmpty()) {
                    continue;
                }
                if (!sb.isEmpty() && !open && !text.equals("(") && !text.equals(")")) {
                    sb.append(' ');
                }
                sb.append(text);
                open = text.equals("(");
            }
        }
        List<String> labels = table.select("span.mlabel").stream().map(cell).map(String::strip).toList();
        if (!labels.isEmpty()) {
            sb.append(markdown ? " \\[" : " [").append(String.join(", ", labels)).append(markdown ? "\\]" : "]");
        }
        return sb.toString();
    }
}
