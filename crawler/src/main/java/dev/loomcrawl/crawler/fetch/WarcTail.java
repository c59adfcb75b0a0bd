package dev.loomcrawl.crawler.fetch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;

/**
 * Where a WARC file's whole records end, so that a job run again appends after them and not after a record a
 * killed run left half-written: a reader (jwarc's, warcio) stops at the first broken record, and would never
 * reach the records appended after it.
 *
 * <p>Only the end of the file is read: a kill can cut nothing but the last write, so the last records tell. A
 * record starts where a gzip member does ({@code .warc.gz}: a member per record) or at {@code WARC/1.} after the
 * blank lines that close the record before; the start nearest the end from which whole records are read is taken.
 * Reading the whole file would find the same end at 150 MB/s, and would cut at a break anywhere in it, and
 * everything after that break.
 */
final class WarcTail {
    /** How much of the end is read: a pair of records of a page at the default body limit (2 MB), four times. */
    private static final int TAIL = 16 << 20;
    /** Record starts tried from the end: a member's magic bytes can also occur inside compressed data. */
    private static final int TRIES = 16;
    private static final byte[] RECORD_END = {'\r', '\n', '\r', '\n'};
    private static final byte[] VERSION = {'W', 'A', 'R', 'C', '/', '1', '.'};

    private WarcTail() {
    }

    /**
     * The length of the file up to the end of its last whole record that is not a request: a request is the head
     * of a pair written in one call, so one without its response is what a cut write left. 0 when no record is
     * whole, which a file that is not WARC also gives.
     *
     * @throws IOException if the file cannot be read
     */
    static long wholeLength(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path)) {
            long size = channel.size();
            long from = Math.max(0, size - TAIL);
            byte[] tail = read(channel, from, (int) (size - from));
            boolean gzip = startsMember(read(channel, 0, 3), 0);
            int tries = 0;
            for (int at = tail.length - 1; at >= 0 && tries < TRIES; at--) {
                if (gzip ? startsMember(tail, at) : startsVersion(tail, at, from == 0)) {
                    tries++;
                    long end = wholeEnd(tail, at, gzip);
                    if (end > 0) {
                        return from + end;
                    }
                }
            }
            return from == 0 ? 0 : wholeEnd(channel, gzip); // a last record longer than the part read: read it all
        }
    }

    /**
     * Where the last whole record that is not a request ends, read from {@code at} in {@code bytes}; 0 when none
     * is whole from there.
     */
    private static long wholeEnd(byte[] bytes, int at, boolean gzip) {
        try (WarcReader reader = new WarcReader(new ByteArrayInputStream(bytes, at, bytes.length - at))) {
            long end = wholeEnd(reader, after -> gzip || closed(bytes, at + after));
            return end == 0 ? 0 : at + end;
        } catch (IOException | RuntimeException notARecord) {
            return 0;
        }
    }

    /** The same, reading the whole file from its start. */
    private static long wholeEnd(FileChannel channel, boolean gzip) throws IOException {
        channel.position(0);
        WarcReader reader;
        try {
            reader = new WarcReader(channel);
        } catch (IOException | RuntimeException notWarc) {
            return 0;
        }
        return wholeEnd(reader, end -> gzip || end >= RECORD_END.length
                && closed(read(channel, end - RECORD_END.length, RECORD_END.length), RECORD_END.length));
    }

    private interface Closing {
        /** Whether a record the reader read whole ends at {@code end} with its closing blank lines. */
        boolean at(long end) throws IOException;
    }

    /**
     * The reader's position at the end of the last whole record that is not a request, before the first record
     * that is cut, or its end; 0 when none is whole.
     */
    private static long wholeEnd(WarcReader reader, Closing closing) throws IOException {
        long keep = 0;
        WarcRecord last = null; // read whole: where it ends is known when the next one is looked for
        long lastStart = -1;
        while (true) {
            Optional<WarcRecord> next;
            try {
                next = reader.next();
            } catch (IOException | RuntimeException cut) {
                next = Optional.empty(); // the record after the last whole one is cut
            }
            long lastEnd = reader.position(); // where the next record starts, or would have
            if (last != null && !(last instanceof WarcRequest) && lastEnd > lastStart && closing.at(lastEnd)) {
                keep = lastEnd;
            }
            if (next.isEmpty()) {
                return keep;
            }
            last = next.get();
            lastStart = reader.position();
            if (!readWhole(last)) {
                return keep;
            }
        }
    }

    /** Whether the record's block holds as many bytes as its header says: an uncompressed file ends without error. */
    private static boolean readWhole(WarcRecord record) {
        long read = 0;
        byte[] buffer = new byte[8192];
        try (InputStream in = record.body().stream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                read += n;
            }
            return read == record.body().size();
        } catch (IOException | RuntimeException cut) {
            return false;
        }
    }

    /**
     * Whether an uncompressed record ends at {@code end} with its closing blank lines: a file cut inside them reads
     * as if the record ended where its block does.
     */
    private static boolean closed(byte[] bytes, long end) {
        if (end < RECORD_END.length || end > bytes.length) {
            return false;
        }
        for (int i = 0; i < RECORD_END.length; i++) {
            if (bytes[(int) end - RECORD_END.length + i] != RECORD_END[i]) {
                return false;
            }
        }
        return true;
    }

    /** A gzip member's first bytes: its magic and the deflate method. */
    private static boolean startsMember(byte[] bytes, int at) {
        return at + 2 < bytes.length && bytes[at] == 0x1f && bytes[at + 1] == (byte) 0x8b && bytes[at + 2] == 8;
    }

    /**
     * {@code WARC/1.} at the file's start or after a record's closing blank lines: a page's text may hold a WARC
     * record on a line of its own, but it is read here as part of a record's block.
     */
    private static boolean startsVersion(byte[] bytes, int at, boolean fileStart) {
        if (at + VERSION.length > bytes.length || !(at == 0 ? fileStart : closed(bytes, at))) {
            return false;
        }
        for (int i = 0; i < VERSION.length; i++) {
            if (bytes[at + i] != VERSION[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] read(FileChannel channel, long from, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(Math.max(0, length));
        while (buffer.hasRemaining() && channel.read(buffer, from + buffer.position()) > 0) {
            // a file's read returns what is there
        }
        return buffer.hasRemaining() ? Arrays.copyOf(buffer.array(), buffer.position()) : buffer.array();
    }
}
