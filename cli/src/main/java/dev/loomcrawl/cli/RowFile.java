package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.values.Export;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A file of rows ({@code --output} of {@code crawl}, {@code resume}, {@code recrawl} and {@code export}), as its
 * name asks: CSV for {@code .csv}, JSON Lines for {@code .jsonl}, {@code .ndjson}, {@code .json} or no extension,
 * gzipped when the name ends {@code .gz}. A name that asks for a format rows are not written in ({@code .md},
 * {@code .parquet}, ...) is refused before anything is crawled: rows in a file named for another format are a
 * surprise found only when the file is read.
 *
 * @param format the format the name asks for
 * @param gzip the name ends {@code .gz}
 */
record RowFile(Path path, Export.Format format, boolean gzip) {

    /** @throws IllegalArgumentException naming the flag and the formats it takes */
    static RowFile of(String flag, Path path) {
        String name = lowerName(path);
        boolean gzip = name.endsWith(".gz");
        String base = gzip ? name.substring(0, name.length() - 3) : name;
        int dot = base.lastIndexOf('.');
        String extension = dot <= 0 ? "" : base.substring(dot + 1);
        return switch (extension) {
            case "csv" -> new RowFile(path, Export.Format.CSV, gzip);
            case "", "jsonl", "ndjson", "json" -> new RowFile(path, Export.Format.JSONL, gzip);
            default -> throw new IllegalArgumentException(flag + ": rows are written as JSON Lines (.jsonl, .ndjson,"
                    + " .json) or CSV (.csv), gzipped for a name ending .gz; '" + path.getFileName()
                    + "' asks for neither" + hint(extension));
        };
    }

    /** The file for rows in {@code format}, whatever its name's extension; gzipped if it ends {@code .gz}. */
    static RowFile as(Export.Format format, Path path) {
        return new RowFile(path, format, lowerName(path).endsWith(".gz"));
    }

    private static String lowerName(Path path) {
        return path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
    }

    private static String hint(String extension) {
        return switch (extension) {
            case "md", "markdown" -> " (each page's content as Markdown: export JOB --format=markdown --output=DIR)";
            case "warc" -> " (WARC records: --warc=FILE)";
            default -> "";
        };
    }

    /**
     * Opens the file, buffered, its folders made, appended to or written afresh. Gzip appends a member, which
     * every gzip reader reads on as one stream; it is flushed whole whenever the stream is, so a file read while a
     * crawl writes it holds every row flushed so far.
     *
     * @throws IllegalArgumentException saying in words why it cannot be written
     */
    OutputStream open(String flag, boolean append) {
        try {
            if (path.toAbsolutePath().getParent() != null) {
                Files.createDirectories(path.toAbsolutePath().getParent());
            }
            OutputStream file = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
            return gzip ? new BufferedOutputStream(new GZIPOutputStream(file, 65_536, true), 65_536)
                    : new BufferedOutputStream(file, 65_536);
        } catch (IOException e) {
            throw Flags.cannotWrite(flag, path, e);
        }
    }

    /** The file holds no row yet: no file, an empty one, or (gzipped) one whose members hold nothing. */
    boolean empty() throws IOException {
        if (!Files.exists(path) || Files.size(path) == 0) {
            return true;
        }
        if (!gzip) {
            return false;
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(path))) {
            return in.read() < 0;
        } catch (IOException e) {
            return false; // a cut member: rows were written
        }
    }
}
