package dev.loomcrawl.crawler.values;

import org.jspecify.annotations.Nullable;

/**
 * A page's main content in the form its job asked for ({@code --content}), and what the page says of itself
 * beside it. Each is null where the page does not say.
 *
 * @param text the main content as Markdown or plain text; empty when none could be found (the row's
 *     {@code detail} says why)
 * @param lang the page's language as it declares it ({@code <html lang>}, {@code Content-Language}, Open Graph)
 * @param description the page's own summary ({@code <meta name=description>}, Open Graph)
 * @param author who wrote it ({@code <meta name=author>}, {@code article:author}, JSON-LD)
 * @param published when it was first published, as the page writes it ({@code article:published_time},
 *     JSON-LD {@code datePublished}, {@code <time datetime>})
 */
public record PageContent(String text, @Nullable String lang, @Nullable String description, @Nullable String author,
        @Nullable String published) {
    public PageContent {
        text = text == null ? "" : text;
    }

    /** No content, and nothing said about it. */
    public static final PageContent EMPTY = new PageContent("", null, null, null, null);

    /** This content with its text at most {@code max} characters, cut at a space where one is near, the cut said at its end. */
    public PageContent cut(int max) {
        if (text.length() <= max) {
            return this;
        }
        int end = max;
        int space = text.lastIndexOf(' ', max);
        if (space > max - 200 && space > 0) {
            end = space;
        }
        String cut = text.substring(0, end).stripTrailing() + "\n\n[content cut at " + end + " of " + text.length()
                + " characters]";
        return new PageContent(cut, lang, description, author, published);
    }
}
