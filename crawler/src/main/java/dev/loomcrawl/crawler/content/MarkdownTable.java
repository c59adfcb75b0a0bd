package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jsoup.nodes.Element;

/**
 * A data table written as GitHub's Markdown table (a header row, then a row of {@code ---}), or as text with its
 * cells parted by tabs. Which tables are data and which lay out a page is {@link MarkdownWriter}'s call.
 */
final class MarkdownTable {
    private MarkdownTable() {}

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
            for (Element c : row) {
                String text = cell.apply(c);
                // one row a line
                text = markdown ? text.replace(MarkdownText.HARD_BREAK, " ").replace("\n", " ").replace("|", "\\|")
                        : text.replace("\n", " ");
                used[cells.size()] |= !text.isBlank();
                any |= !text.isBlank();
                cells.add(text);
            }
            if (any) {
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
                sb.append("| ").append(String.join(" | ", shown)).append(" |\n");
                if (r == 0) {
                    sb.append("|").append(" --- |".repeat(shown.size())).append('\n');
                }
            } else {
                sb.append(String.join("\t", shown).strip()).append('\n');
            }
        }
        return sb.toString().stripTrailing();
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
