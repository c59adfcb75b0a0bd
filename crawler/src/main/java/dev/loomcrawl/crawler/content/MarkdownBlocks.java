package dev.loomcrawl.crawler.content;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The blocks written in one place (the content, a list item, a quote), each with what joining them needs to know:
 * a heading's level, a list's mark, whether CommonMark would read a next line into it. Joined as the content
 * ({@link #content}), a list item ({@link #item}) or a quote's inside ({@link #apart}).
 */
final class MarkdownBlocks {
    private enum Kind {
        PARAGRAPH, HEADING, LIST, TABLE, QUOTE, RULE;

        /** Whether CommonMark reads a line right after the block as more of it: a row, a lazy line. */
        boolean readsOn() {
            return this == LIST || this == TABLE || this == QUOTE;
        }
    }

    private record Block(String text, Kind kind, int level, @Nullable String mark) {}

    private final boolean markdown;
    private final List<Block> blocks = new ArrayList<>();

    /** @param markdown whether the blocks are Markdown (else text, which nothing reads on) */
    MarkdownBlocks(boolean markdown) {
        this.markdown = markdown;
    }

    /** A paragraph, or any block that ends where it ends (a fenced code block). */
    void paragraph(String text) {
        add(text, Kind.PARAGRAPH, 0, null);
    }

    void heading(String text, int level) {
        add(text, Kind.HEADING, level, null);
    }

    /** @param mark its items' mark: {@code -}, {@code *}, {@code .} or {@code )} */
    void list(String text, String mark) {
        add(text, Kind.LIST, 0, mark);
    }

    void table(String text) {
        add(text, Kind.TABLE, 0, null);
    }

    void quote(String text) {
        add(text, Kind.QUOTE, 0, null);
    }

    /** An {@code <hr>}: in Markdown a rule between blocks; in text only the blank line between them. */
    void rule() {
        if (markdown) {
            add("---", Kind.RULE, 0, null);
        }
    }

    /** How many blocks are written: what {@link #keep} takes. */
    int count() {
        return blocks.size();
    }

    /** Leaves out the blocks written after the first {@code count}. */
    void keep(int count) {
        blocks.subList(count, blocks.size()).clear();
    }

    /** The mark of the list the blocks end with, or null: a list right after it takes the other mark. */
    @Nullable String listMarkAtEnd() {
        return blocks.isEmpty() ? null : blocks.getLast().mark();
    }

    /**
     * The blocks a blank line apart; "" when nothing in them is text. A rule is no text: it parts text, once, and
     * neither opens nor ends the content, nor follows a heading (a title underlined). A heading with nothing under it
     * (the end, or a heading not under it) is left out.
     */
    String content() {
        List<Block> kept = new ArrayList<>(blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            if (block.kind() == Kind.RULE) {
                if (!kept.isEmpty() && kept.getLast().kind() != Kind.RULE && kept.getLast().kind() != Kind.HEADING) {
                    kept.add(block);
                }
                continue;
            }
            int after = i + 1;
            while (after < blocks.size() && blocks.get(after).kind() == Kind.RULE) {
                after++;
            }
            Block next = after < blocks.size() ? blocks.get(after) : null;
            boolean textUnder = next != null && (next.kind() != Kind.HEADING || next.level() > block.level());
            if (block.kind() != Kind.HEADING || textUnder) {
                kept.add(block);
            }
        }
        if (!kept.isEmpty() && kept.getLast().kind() == Kind.RULE) {
            kept.removeLast();
        }
        return kept.size() == 1 ? kept.getFirst().text() : join(kept); // one block: no copy of it
    }

    /**
     * The blocks of a list item, a line apart as a tight list has them; a blank line apart where CommonMark would
     * read on from the block before (a line after a table is a row of it, after a list or a quote a lazy line of its
     * last paragraph) and before a rule (under a paragraph it makes a heading). A rule that would open or end the
     * item ("{@code - ---}" is a rule, not an item) is left out.
     */
    String item() {
        int from = !blocks.isEmpty() && blocks.getFirst().kind() == Kind.RULE ? 1 : 0;
        int to = !blocks.isEmpty() && blocks.getLast().kind() == Kind.RULE ? blocks.size() - 1 : blocks.size();
        if (to - from == 1) {
            return blocks.get(from).text();
        }
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            if (i > from) {
                boolean apart = markdown && (blocks.get(i - 1).kind().readsOn() || blocks.get(i).kind() == Kind.RULE);
                sb.append(apart ? "\n\n" : "\n");
            }
            sb.append(blocks.get(i).text());
        }
        return sb.toString();
    }

    /** All the blocks a blank line apart, as a quote holds them. */
    String apart() {
        return join(blocks);
    }

    private void add(String text, Kind kind, int level, @Nullable String mark) {
        if (!text.isEmpty()) {
            blocks.add(new Block(text, kind, level, mark));
        }
    }

    private static String join(List<Block> blocks) {
        StringBuilder sb = new StringBuilder();
        for (Block block : blocks) {
            sb.append(sb.isEmpty() ? "" : "\n\n").append(block.text());
        }
        return sb.toString();
    }
}
