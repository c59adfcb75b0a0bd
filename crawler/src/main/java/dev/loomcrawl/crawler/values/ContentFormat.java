package dev.loomcrawl.crawler.values;

import java.util.Locale;

/** The form a page's main content is kept in ({@code --content}, {@code "content"} in the API). */
public enum ContentFormat {
    /** No content kept: the default, and what a crawl without {@code --content} costs. */
    NONE,
    /** Headings, paragraphs, lists, tables, code, block quotes, emphasis and links (absolute URLs). */
    MARKDOWN,
    /** The same words as {@link #MARKDOWN} as plain text: a blank line between blocks, no markup. */
    TEXT;

    /** Most characters of content kept per page unless a job says otherwise; a long article has ~60,000. */
    public static final int DEFAULT_MAX_CHARS = 200_000;
    /** The least and most a job or a fetch may ask to keep. */
    public static final int MIN_MAX_CHARS = 1_000;
    public static final int MAX_MAX_CHARS = 100_000_000;

    /** {@code none}, {@code markdown} or {@code text}, as users write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException saying what is accepted, when {@code value} is none of the labels */
    public static ContentFormat parse(String value) {
        for (ContentFormat f : values()) {
            if (f.label().equals(value == null ? "" : value.strip().toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("must be 'markdown', 'text' or 'none', was '" + value + "'");
    }
}
