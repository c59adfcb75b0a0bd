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

    /** @param cell a cell's inline content, written as the rest of the page is */
    static String write(List<List<Element>> rows, Function<Element, String> cell, boolean markdown) {
        int width = width(rows);
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            List<String> cells = new ArrayList<>(width);
            for (Element c : rows.get(r)) {
                String text = cell.apply(c);
                // one row a line
                cells.add(markdown ? text.replace(MarkdownText.HARD_BREAK, " ").replace("\n", " ").replace("|", "\\|")
                        : text.replace("\n", " "));
            }
            while (cells.size() < width) {
                cells.add("");
            }
            if (markdown) {
                sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
                if (r == 0) {
                    sb.append("|").append(" --- |".repeat(width)).append('\n');
                }
            } else {
                sb.append(String.join("\t", cells).strip()).append('\n');
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
