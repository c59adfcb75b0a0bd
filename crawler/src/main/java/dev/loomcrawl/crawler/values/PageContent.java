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
        text = text == null ? "" : SafeText.of(text);
        lang = SafeText.of(lang);
        description = SafeText.of(description);
        author = SafeText.of(author);
        published = SafeText.of(published);
    }

    /** No content, and nothing said about it. */
    public static final PageContent EMPTY = new PageContent("", null, null, null, null);

    /**
     * This content with its text at most {@code max} characters, the cut said at its end. It is made where a block
     * ends if one ends near (the last paragraph whole), else at a line's or a word's end; a code fence it leaves
     * open is closed, or the note and all after would read as code.
     */
    public PageContent cut(int max) {
        if (text.length() <= max) {
            return this;
        }
        int end = near(text.lastIndexOf("\n\n", max), max, Math.min(2_000, max / 10));
        end = end >= 0 ? end : near(text.lastIndexOf('\n', max), max, 200);
        end = end >= 0 ? end : near(text.lastIndexOf(' ', max), max, 200);
        end = end >= 0 ? end : max;
        String kept = text.substring(0, end).stripTrailing();
        String fence = openFence(kept);
        String cut = kept + (fence == null ? "" : "\n" + fence) + "\n\n[content cut at " + end + " of "
                + text.length() + " characters]";
        return new PageContent(cut, lang, description, author, published);
    }

    private static int near(int at, int max, int within) {
        return at > 0 && at > max - within ? at : -1;
    }

    /**
     * The fence that closes a code block {@code markdown} leaves open (CommonMark's rule), indented as it opened
     * (in a list item); null when none is open.
     */
    private static @Nullable String openFence(String markdown) {
        String open = null;
        for (String line : markdown.split("\n", -1)) {
            String s = line.stripLeading();
            if (s.length() < 3 || s.charAt(0) != '`' && s.charAt(0) != '~') {
                continue;
            }
            int run = 0;
            while (run < s.length() && s.charAt(run) == s.charAt(0)) {
                run++;
            }
            if (open == null && run >= 3) {
                open = line.substring(0, line.length() - s.length() + run);
            } else if (open != null && s.charAt(0) == open.strip().charAt(0) && run >= open.strip().length()
                    && s.substring(run).isBlank()) {
                open = null;
            }
        }
        return open;
    }
}
