package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Block;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Our Markdown as a reader that is not ours reads it: commonmark-java, CommonMark's reference parser for Java, with
 * GitHub's tables and strike-through (the dialect docs/content.md promises). What it shows, and where its links go.
 */
record CommonMarkReading(String text, List<String> links) {
    private static final List<org.commonmark.Extension> GFM = List.of(TablesExtension.create(),
            StrikethroughExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(GFM).build();

    /** The HTML the reader makes of {@code markdown}: what it shows as emphasis, code and links. */
    static String html(String markdown) {
        return HtmlRenderer.builder().extensions(GFM).build().render(PARSER.parse(markdown)).strip();
    }

    static CommonMarkReading of(String markdown) {
        StringBuilder text = new StringBuilder();
        List<String> links = new ArrayList<>();
        PARSER.parse(markdown).accept(new AbstractVisitor() {
            private int number = -1; // the next ordered item's number, as the text form writes it

            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code c) {
                text.append(c.getLiteral());
            }

            @Override
            public void visit(SoftLineBreak b) {
                text.append(' ');
            }

            @Override
            public void visit(HardLineBreak b) {
                text.append(' ');
            }

            @Override
            public void visit(FencedCodeBlock c) {
                text.append(c.getLiteral()).append(' ');
            }

            @Override
            public void visit(IndentedCodeBlock c) {
                text.append(c.getLiteral()).append(' ');
            }

            @Override
            public void visit(HtmlInline h) {
                text.append(h.getLiteral()); // we write none: were it read so, its words still count
            }

            @Override
            public void visit(HtmlBlock h) {
                text.append(h.getLiteral()).append(' ');
            }

            @Override
            public void visit(Link link) {
                links.add(link.getDestination());
                visitChildren(link);
            }

            @Override
            public void visit(OrderedList list) {
                int outer = number;
                Integer start = list.getMarkerStartNumber();
                number = start == null ? 1 : start;
                visitChildren(list);
                number = outer;
            }

            @Override
            public void visit(ListItem item) {
                if (item.getParent() instanceof OrderedList) {
                    text.append(number++).append(". ");
                }
                visitChildren(item);
            }

            @Override
            protected void visitChildren(Node parent) {
                super.visitChildren(parent);
                if (parent instanceof Block || parent instanceof TableCell) {
                    text.append(' '); // blocks and cells are apart; emphasis inside a word is not
                }
            }
        });
        return new CommonMarkReading(text.toString(), links);
    }
}
