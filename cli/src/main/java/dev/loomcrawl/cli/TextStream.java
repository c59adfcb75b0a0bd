package dev.loomcrawl.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Bytes of UTF-8 text onto a command's own {@link PrintWriter} (picocli's {@code out}), a line at a time, so
 * that rows written to stdout go wherever the command's output goes (a terminal, a pipe, a test).
 */
final class TextStream extends OutputStream {
    private final PrintWriter out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(512);

    TextStream(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void write(int b) {
        line.write(b);
        if (b == '\n') {
            out.write(line.toString(StandardCharsets.UTF_8)); // a line break never splits a UTF-8 sequence
            line.reset();
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int start = off;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                line.write(b, start, i + 1 - start);
                out.write(line.toString(StandardCharsets.UTF_8));
                line.reset();
                start = i + 1;
            }
        }
        line.write(b, start, off + len - start);
    }

    @Override
    public void flush() {
        out.flush();
    }

    /** Writes what is left of the last line; leaves the writer open for the rest of the command. */
    @Override
    public void close() {
        if (line.size() > 0) {
            out.write(line.toString(StandardCharsets.UTF_8));
            line.reset();
        }
        out.flush();
    }
}
