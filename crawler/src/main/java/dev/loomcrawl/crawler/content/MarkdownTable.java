package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * A data table written as GitHub's Markdown table (a header row, then a row of {@code ---}), or as text with its
 * cells parted by tabs. GitHub's tables must have a header row; a table without one gets an empty one, for its
 * first row made the header would say that a member's name or a price heads the column under it. Which tables are
 * data and which lay out a page is {@link MarkdownWriter}'s call.
 */
final class MarkdownTable {
    /** ARIA's roles of a table's cells. */
    private static final Set<String> CELLS = Set.of("cell", "gridcell", "columnheader", "rowheader");
    /**
     * Javadoc's summary tables (the standard doclet's since JDK 16): a grid of {@code div}s whose class names the
     * number of columns, laid out by CSS alone.
     */
    private static final Pattern SUMMARY = Pattern.compile("\\b(two|three|four|five)-column-summary\\b");
    private static final List<String> COLUMNS = List.of("two", "three", "four", "five");

    /** The tags whose whole text in a cell makes it a heading, as many a page marks its first row. */
    private static final String HEADINGS = "b, strong, h1, h2, h3, h4, h5, h6";

    /** Elements written as a table: HTML's, ARIA's and Javadoc's ({@link #grid}). */
    static final String SELECTOR = "table, [role=table], [role=grid], div.summary-table";

    private MarkdownTable() {}

    /**
     * The rows of a table set without table elements, or null for any other element: one of ARIA's role
     * {@code table} or {@code grid} (its {@code row}s, in {@code rowgroup}s or not, each of its cells), or Javadoc's
     * summary grid (its cells in order, so many a row). Written as text they were a paragraph a cell, a method's
     * name apart from what it returns and what it does.
     */
    static @Nullable List<List<Element>> grid(Element e) {
        String role = e.attr("role");
        if (role.equals("table") || role.equals("grid")) {
            List<List<Element>> rows = new ArrayList<>();
            ariaRows(e, rows);
            return rows.isEmpty() ? null : rows;
        }
        Matcher summary = e.hasClass("summary-table") ? SUMMARY.matcher(e.className()) : null;
        if (summary == null || !summary.find()) {
            return null;
        }
        int width = COLUMNS.indexOf(summary.group(1)) + 2;
        List<List<Element>> rows = new ArrayList<>();
        List<Element> row = new ArrayList<>(width);
        for (Element cell : e.children()) {
            row.add(cell);
            if (row.size() == width) {
                rows.add(row);
                row = new ArrayList<>(width);
            }
        }
        if (!row.isEmpty()) {
            rows.add(row);
        }
        return rows;
    }

    private static void ariaRows(Element parent, List<List<Element>> rows) {
        for (Element child : parent.children()) {
            switch (child.attr("role")) {
                case "row" -> {
                    List<Element> cells = new ArrayList<>();
                    for (Element cell : child.children()) {
                        if (CELLS.contains(cell.attr("role"))) {
                            cells.add(cell);
                        }
                    }
                    rows.add(cells);
                }
                case "rowgroup" -> ariaRows(child, rows);
                default -> { }
            }
        }
    }

    /**
     * A table's own rows, each as its {@code td} and {@code th} cells, in the order a browser shows them: the
     * {@code thead}'s, the body's, then the {@code tfoot}'s, wherever the page put them (HTML 4 had the foot
     * before the body). Rows of tables inside are theirs.
     */
    static List<List<Element>> rows(Element table) {
        List<List<Element>> head = new ArrayList<>();
        List<List<Element>> body = new ArrayList<>();
        List<List<Element>> foot = new ArrayList<>();
        for (Element child : table.children()) {
            switch (child.normalName()) {
                case "tr" -> body.add(cells(child));
                case "thead" -> head.addAll(rowsOf(child));
                case "tbody" -> body.addAll(rowsOf(child));
                case "tfoot" -> foot.addAll(rowsOf(child));
                default -> { }
            }
        }
        head.addAll(body);
        head.addAll(foot);
        return head;
    }

    /** The most cells of any row. */
    static int width(List<List<Element>> rows) {
        int width = 0;
        for (List<Element> row : rows) {
            width = Math.max(width, row.size());
        }
        return width;
    }

    /**
     * The table, less its rows and columns of empty cells (images, spacers: nothing a reader of text sees), or ""
     * when every cell is empty.
     *
     * @param cell a cell's inline content, written as the rest of the page is
     */
    static String write(List<List<Element>> rows, Function<Element, String> cell, boolean markdown) {
        int width = width(rows);
        List<List<String>> texts = new ArrayList<>(rows.size());
        boolean[] used = new boolean[width];
        for (List<Element> row : rows) {
            List<String> cells = new ArrayList<>(width);
            boolean any = false;
            boolean first = texts.isEmpty();
            boolean heads = first;
            for (Element c : row) {
                String text = cell.apply(c);
                // one row a line
                text = markdown ? text.replace(MarkdownText.HARD_BREAK, " ").replace("\n", " ").replace("|", "\\|")
                        : text.replace("\n", " ");
                used[cells.size()] |= !text.isBlank();
                any |= !text.isBlank();
                heads = heads && (text.isBlank() || heading(c));
                cells.add(text);
            }
            if (any) {
                if (first && !heads && markdown) {
                    texts.add(List.of()); // an empty header row
                }
                texts.add(cells);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < texts.size(); r++) {
            List<String> cells = texts.get(r);
            List<String> shown = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                if (used[c]) {
                    shown.add(c < cells.size() ? cells.get(c) : "");
                }
            }
            if (markdown) {
                sb.append(cells.isEmpty() ? "|" + " |".repeat(shown.size()) : "| " + String.join(" | ", shown) + " |")
                        .append('\n');
                if (r == 0) {
                    sb.append("|").append(" --- |".repeat(shown.size())).append('\n');
                }
            } else {
                sb.append(String.join("\t", shown).strip()).append('\n');
            }
        }
        return sb.toString().stripTrailing();
    }

    /**
     * Whether a cell heads its column or row: HTML's {@code th} or a cell of a {@code thead}, ARIA's headers,
     * Javadoc's {@code table-header}, or a cell whose whole text is bold or a heading (Doxygen's).
     */
    private static boolean heading(Element cell) {
        if (cell.nameIs("th") || cell.attr("role").endsWith("header") || cell.hasClass("table-header")) {
            return true;
        }
        Element row = cell.parent();
        if (row != null && row.parent() != null && row.parent().nameIs("thead")) {
            return true;
        }
        String text = cell.text();
        for (Element inner : cell.select(HEADINGS)) {
            if (inner.text().equals(text)) {
                return true;
            }
        }
        return false;
    }

    private static List<List<Element>> rowsOf(Element section) {
        List<List<Element>> rows = new ArrayList<>();
        for (Element row : section.children()) {
            if (row.nameIs("tr")) {
                rows.add(cells(row));
            }
        }
        return rows;
    }

    private static List<Element> cells(Element row) {
        List<Element> cells = new ArrayList<>();
        for (Element cell : row.children()) {
            if (cell.nameIs("td") || cell.nameIs("th")) {
                cells.add(cell);
            }
        }
        return cells;
    }
}
