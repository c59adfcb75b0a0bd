package dev.loomcrawl.crawler.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;

/**
 * Where a WARC file's whole records end, so that a job run again appends after them and not after a record a
 * killed run left half-written: a reader (jwarc's, warcio) stops at the first broken record, and would never
 * reach the records appended after it.
 *
 * <p>The file is read once, start to end (gzip members inflated): records are found only by reading, and a
 * resume is rare beside the crawl it resumes.
 */
final class WarcTail {
    private static final byte[] RECORD_END = {'\r', '\n', '\r', '\n'};

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
            WarcReader reader;
            try {
                reader = new WarcReader(channel);
            } catch (IOException | RuntimeException notWarc) {
                return 0;
            }
            long keep = 0;
            WarcRecord last = null; // read whole: where it ends is known when the next one is looked for
            long lastStart = -1;
            while (true) {
                Optional<WarcRecord> next;
                try {
                    next = reader.next();
                } catch (IOException | RuntimeException cut) {
                    next = Optional.empty(); // the record after the last whole one is cut, or this is no WARC file
                }
                long lastEnd = reader.position(); // where the next record starts, or would have
                if (last != null && !(last instanceof WarcRequest) && lastEnd > lastStart
                        && (reader.compression() != WarcCompression.NONE || closedAt(channel, lastEnd))) {
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
    private static boolean closedAt(FileChannel channel, long end) throws IOException {
        ByteBuffer closing = ByteBuffer.allocate(RECORD_END.length);
        long at = end - RECORD_END.length;
        while (at >= 0 && closing.hasRemaining() && channel.read(closing, at + closing.position()) > 0) {
            // a file's read returns what is there
        }
        return !closing.hasRemaining() && closing.flip().equals(ByteBuffer.wrap(RECORD_END));
    }
}
