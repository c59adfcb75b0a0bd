package dev.loomcrawl.crawler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomcrawl.crawler.store.PageStore;
import dev.loomcrawl.crawler.values.PageContent;
import dev.loomcrawl.crawler.values.PageRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * A job's main content as one Markdown file per page ({@code export --format=markdown}, or a ZIP archive of them:
 * {@code GET /crawl/{id}/export?format=markdown}): YAML front matter
 * (url, title, fetchedAt, and lang, description, author, published where the page says them), then the
 * content. Each file is named from its URL, stably: host and path as a slug, then the first 8 hex digits of
 * the URL's SHA-256, so two URLs never share a file and a second export writes the same names.
 */
final class MarkdownFiles {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SLUG_MAX = 80;

    private MarkdownFiles() {}

    /**
     * Writes every stored page of the job that has content into {@code dir}; pages without (failures,
     * redirects, what is not HTML) are left out. Each file is written beside its name and moved over it.
     *
     * @param maxChars content longer than this is cut, and says so
     * @return how many files were written
     */
    static long write(PageStore store, long jobId, Path dir, int maxChars) throws IOException {
        Files.createDirectories(dir);
        return forEachDocument(store, jobId, maxChars, (name, document) -> {
            Path file = dir.resolve(name);
            Path part = file.resolveSibling(file.getFileName() + ".part");
            Files.writeString(part, document, StandardCharsets.UTF_8);
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
        });
    }

    /**
     * The same files as one ZIP archive streamed to {@code out}, a page at a time (what the API serves); {@code out}
     * is left open.
     *
     * @return how many files it holds
     */
    static long zip(PageStore store, long jobId, OutputStream out, int maxChars) throws IOException {
        ZipOutputStream zip = new ZipOutputStream(out, StandardCharsets.UTF_8);
        long files = forEachDocument(store, jobId, maxChars, (name, document) -> {
            zip.putNextEntry(new ZipEntry(name));
            zip.write(document.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        });
        zip.finish();
        return files;
    }

    /** Where one page's document goes. */
    @FunctionalInterface
    private interface Documents {
        void put(String fileName, String document) throws IOException;
    }

    private static long forEachDocument(PageStore store, long jobId, int maxChars, Documents documents)
            throws IOException {
        long[] written = {0};
        try {
            store.forEachPage(jobId, 0, Integer.MAX_VALUE, null, false, page -> {
                if (page.content() == null || page.content().text().isEmpty()) {
                    return;
                }
                try {
                    documents.put(fileName(page.url()), document(page, page.content().cut(maxChars)));
                    written[0]++;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return written[0];
    }

    /** {@code example-org-blog-post-1-3f2a9c1b.md} for {@code https://example.org/blog/post-1}. */
    public static String fileName(String url) {
        String rest = url.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://", "");
        String slug = rest.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.length() > SLUG_MAX) {
            slug = slug.substring(0, SLUG_MAX).replaceAll("-+$", "");
        }
        return (slug.isEmpty() ? "page" : slug) + "-" + sha256(url).substring(0, 8) + ".md";
    }

    static String document(PageRecord page, PageContent content) {
        StringBuilder md = new StringBuilder("---\n");
        field(md, "url", page.url());
        field(md, "title", page.title());
        field(md, "fetchedAt", page.fetchedAt().toString());
        field(md, "lang", content.lang());
        field(md, "description", content.description());
        field(md, "author", content.author());
        field(md, "published", content.published());
        return md.append("---\n\n").append(content.text()).append('\n').toString();
    }

    /** A YAML field; the value as a JSON string, which YAML reads as a double-quoted scalar. */
    private static void field(StringBuilder md, String name, @Nullable String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        try {
            md.append(name).append(": ").append(JSON.writeValueAsString(value)).append('\n');
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string is always JSON", e);
        }
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
